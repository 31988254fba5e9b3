/*
 * plot.js - one caret_c plot drawn with uPlot from the page's JSON
 * (draw_html.py): timeseries as lines, histograms, stacked bars, a
 * path's message flow and the callbacks' scheduling. uPlot keeps the
 * axes, the drag-to-zoom and the legend; bars, flows and lanes are drawn
 * on its canvas by a draw hook. window.caretPlot says when it is drawn.
 */
(function () {
	'use strict';
	var chart = JSON.parse(document.getElementById('caret-plot-data').textContent);
	var box = document.getElementById('caret-plot');
	var status = document.getElementById('caret-plot-status');
	var state = window.caretPlot = { ready: false, kind: chart.kind, error: null };

	function colour(i) { return chart.palette[i % chart.palette.length]; }
	function alpha(c, a) {
		var n = parseInt(c.slice(1), 16);
		return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
	}
	function fmt(v, digits) { return v == null ? '-' : (+v).toFixed(digits); }
	function range(values) {
		var lo = Infinity, hi = -Infinity;
		values.forEach(function (v) {
			if (v != null) {
				lo = Math.min(lo, v);
				hi = Math.max(hi, v);
			}
		});
		if (lo === Infinity)
			return [0, 1];
		return lo === hi ? [lo - 0.5, hi + 0.5] : [lo, hi];
	}
	/* tick labels with as many decimals as the ticks' step needs (uPlot's
	 * own keep three: a zoom to microseconds read 0.1 0.1 0.1) */
	function ticks(u, splits, axis, space, step) {
		var digits = Math.max(0, Math.min(9, -Math.floor(Math.log10(step || 1) + 1e-9)));
		return splits.map(function (v) { return v == null ? '' : v.toFixed(digits); });
	}
	/* the plot's canvas, clipped to the plotting area, for a draw hook */
	function clipped(u, draw) {
		var ctx = u.ctx;
		ctx.save();
		ctx.beginPath();
		ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
		ctx.clip();
		draw(ctx, function (x) { return u.valToPos(x, 'x', true); },
			function (y) { return u.valToPos(y, 'y', true); });
		ctx.restore();
	}
	/* a series that uPlot lists in its legend but does not draw */
	function listed(name, i, value) {
		return { label: name, stroke: colour(i), fill: alpha(colour(i), 0.6), width: 0,
			points: { show: false }, paths: function () { return null; }, value: value };
	}
	/* a category axis: one label a row, rows counted from the top */
	function rowAxis(labels) {
		var longest = labels.reduce(function (m, l) { return Math.max(m, l.length); }, 0);
		return {
			size: Math.min(360, 16 + 6.5 * longest),
			splits: function () { return labels.map(function (l, i) { return labels.length - 1 - i; }); },
			values: function (u, splits) { return splits.map(function (s) { return labels[labels.length - 1 - s]; }); },
			grid: { show: false },
			ticks: { show: false },
			font: '11px sans-serif',
		};
	}

	function lines() {
		var tables = chart.series.map(function (s) {
			var pts = [];
			for (var k = 0; k < s.x.length; k++)
				if (s.x[k] != null)
					pts.push([s.x[k], s.y[k]]);
			pts.sort(function (a, b) { return a[0] - b[0]; });
			return [pts.map(function (p) { return p[0]; }), pts.map(function (p) { return p[1]; })];
		});
		var many = tables.reduce(function (n, t) { return n + t[0].length; }, 0) > 4000;
		return {
			data: tables.length ? uPlot.join(tables) : [[], []],
			series: [{ label: chart.xLabel, value: function (u, v) { return fmt(v, 6); } }]
				.concat(chart.series.map(function (s, i) {
					return { label: s.name, stroke: colour(i), width: 1.2, spanGaps: true,
						points: { show: !many, size: 4 }, value: function (u, v) { return fmt(v, 3); } };
				})),
		};
	}

	function histogram() {
		var edges = chart.data.edges, n = edges.length - 1;
		var data = [edges.slice()];
		chart.series.forEach(function (s) { data.push(s.y.concat([null])); });
		return {
			data: data,
			series: [{ label: chart.xLabel, value: function (u, v) { return fmt(v, 3); } }]
				.concat(chart.series.map(function (s, i) { return listed(s.name, i); })),
			draw: function (u) {
				clipped(u, function (ctx, X, Y) {
					for (var b = 0; b < n; b++) {
						/* the tallest of a bin behind the others */
						var order = chart.series.map(function (s, i) { return i; })
							.filter(function (i) { return u.series[i + 1].show && chart.series[i].y[b] > 0; })
							.sort(function (a, c) { return chart.series[c].y[b] - chart.series[a].y[b]; });
						order.forEach(function (i) {
							var x0 = X(edges[b]), x1 = X(edges[b + 1]), y = Y(chart.series[i].y[b]);
							ctx.fillStyle = colour(i);
							ctx.fillRect(x0, y, Math.max(1, x1 - x0 - 1), Y(0) - y);
						});
					}
				});
			},
			yZero: true,
		};
	}

	function stacked() {
		var x = chart.data.x, width = chart.data.width, m = chart.series.length;
		/* the tops: each stage on the ones after it, the first on top */
		var tops = chart.series.map(function () { return new Array(x.length); });
		for (var k = 0; k < x.length; k++) {
			var sum = 0;
			for (var i = m - 1; i >= 0; i--) {
				sum += chart.series[i].y[k] || 0;
				tops[i][k] = sum;
			}
		}
		var end = x.length ? x[x.length - 1] + width[width.length - 1] : 1;
		return {
			data: [x.concat([end])].concat(tops.map(function (t) { return t.concat([null]); })),
			series: [{ label: chart.xLabel, value: function (u, v) { return fmt(v, 6); } }]
				.concat(chart.series.map(function (s, i) {
					return listed(s.name, i, function (u, v, si, idx) {
						return idx == null || idx >= x.length ? '-' : fmt(chart.series[i].y[idx], 3) + ' ms';
					});
				})),
			draw: function (u) {
				clipped(u, function (ctx, X, Y) {
					for (var i = 0; i < m; i++) {
						if (!u.series[i + 1].show)
							continue;
						ctx.fillStyle = colour(i);
						for (var k = 0; k < x.length; k++) {
							var x0 = X(x[k]), x1 = X(x[k] + width[k]), y = Y(tops[i][k]);
							ctx.fillRect(x0, y, Math.max(1, x1 - x0 - 0.5), Y(0) - y);
						}
					}
				});
			},
			yZero: true,
		};
	}

	function flow() {
		var stages = chart.data.stages, rows = stages.length, lines_ = chart.data.lines;
		var all = [];
		lines_.forEach(function (l) { all = all.concat(l); });
		chart.data.boxes.forEach(function (b) { all.push(b[0], b[1]); });
		var xr = range(all);
		return {
			data: [xr, [null, null]],
			series: [{ label: chart.xLabel }, { label: 'messages', show: true, paths: function () { return null; }, points: { show: false } }],
			y: { auto: false, range: [-0.5, rows - 0.5] },
			yAxis: rowAxis(stages),
			height: 120 + 34 * rows,
			draw: function (u) {
				clipped(u, function (ctx, X, Y) {
					ctx.fillStyle = 'rgba(0,0,0,0.15)';
					chart.data.boxes.forEach(function (b) {
						var top = Y(rows - 1 - b[2]), bottom = Y(rows - 2 - b[2]);
						ctx.fillRect(X(b[0]), top, Math.max(1, X(b[1]) - X(b[0])), bottom - top);
					});
					lines_.forEach(function (l, i) {
						ctx.strokeStyle = colour(i);
						ctx.lineWidth = 1.5;
						ctx.beginPath();
						var started = false;
						for (var s = 0; s < l.length; s++) {
							if (l[s] == null)
								continue;
							var px = X(l[s]), py = Y(rows - 1 - s);
							if (started)
								ctx.lineTo(px, py);
							else
								ctx.moveTo(px, py);
							started = true;
						}
						ctx.stroke();
					});
				});
			},
			hover: function (u, x) {
				var best = null;
				lines_.forEach(function (l, i) {
					var known = l.filter(function (v) { return v != null; });
					if (known.length && x >= known[0] && x <= known[known.length - 1])
						best = best || { i: i, l: known };
				});
				return best ? 'message ' + best.i + ': ' + fmt(best.l[0], 6) + ' s to ' +
					fmt(best.l[best.l.length - 1], 6) + ' s, ' +
					fmt((best.l[best.l.length - 1] - best.l[0]) * 1e3, 3) + ' ms' : '';
			},
		};
	}

	function sched() {
		var lanes = chart.data.lanes, rows = lanes.length;
		var xr = chart.data.range || range([].concat.apply([], lanes.map(function (l) {
			return [].concat.apply([], l.runs);
		})));
		return {
			data: [xr, [null, null]],
			series: [{ label: chart.xLabel }, { label: 'runs', paths: function () { return null; }, points: { show: false } }],
			y: { auto: false, range: [-0.5, rows - 0.5] },
			yAxis: rowAxis(lanes.map(function (l) { return l.name; })),
			height: 120 + 34 * rows,
			draw: function (u) {
				clipped(u, function (ctx, X, Y) {
					lanes.forEach(function (lane, i) {
						var y = rows - 1 - i, top = Y(y + 0.3), bottom = Y(y - 0.3);
						ctx.fillStyle = alpha(colour(lane.colour), 0.1);
						ctx.fillRect(X(xr[0]), Y(y + 0.5), X(xr[1]) - X(xr[0]), Y(y - 0.5) - Y(y + 0.5));
						ctx.fillStyle = colour(lane.colour);
						lane.runs.forEach(function (r) {
							if (r[0] == null || r[1] == null)
								return;
							ctx.fillRect(X(r[0]), top, Math.max(1, X(r[1]) - X(r[0])), bottom - top);
						});
					});
				});
			},
			hover: function (u, x, y) {
				var i = rows - 1 - Math.round(y), lane = lanes[i];
				if (!lane)
					return '';
				for (var k = 0; k < lane.runs.length; k++) {
					var r = lane.runs[k];
					if (r[0] != null && r[1] != null && x >= r[0] && x <= r[1])
						return lane.name + ': run at ' + fmt(r[0], 6) + ' s, ' + fmt((r[1] - r[0]) * 1e3, 3) + ' ms';
				}
				return lane.name;
			},
		};
	}

	function draw() {
		var make = { lines: lines, histogram: histogram, stacked: stacked, flow: flow, sched: sched }[chart.kind];
		var spec = make();
		var yScale = spec.y || { auto: true };
		if (spec.yZero)
			yScale = { auto: true, range: function (u, lo, hi) { return [0, hi > 0 ? hi * 1.05 : 1]; } };
		var opts = {
			width: Math.max(320, box.clientWidth),
			height: spec.height || 460,
			scales: { x: { time: false }, y: yScale },
			series: spec.series,
			axes: [{ label: chart.xLabel, values: ticks },
				spec.yAxis || { label: chart.yLabel, values: ticks, size: 60 }],
			legend: { show: chart.kind !== 'flow' && chart.kind !== 'sched' },
			cursor: { drag: { x: true, y: false } },
			hooks: {
				draw: spec.draw ? [spec.draw] : [],
				setCursor: spec.hover ? [function (u) {
					var l = u.cursor.left, t = u.cursor.top;
					status.textContent = l == null || l < 0 ? '' :
						spec.hover(u, u.posToVal(l, 'x'), u.posToVal(t, 'y'));
				}] : [],
			},
		};
		if (spec.yAxis)
			opts.axes[1].label = chart.yLabel;
		var u = new uPlot(opts, spec.data, box);
		window.addEventListener('resize', function () {
			u.setSize({ width: Math.max(320, box.clientWidth), height: opts.height });
		});
		state.plot = u;
	}

	try {
		draw();
		state.ready = true;
	} catch (e) {
		state.error = String(e && e.stack || e);
		box.textContent = 'the plot could not be drawn: ' + e;
		throw e;
	}
})();
