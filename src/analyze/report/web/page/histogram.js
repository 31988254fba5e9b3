/*
 * histogram.js - a histogram (uPlot bars): linear bins to the 99th
 * percentile and an overflow bin, or a 1-2-5 logarithmic ladder; round
 * labels, whole counts.
 */
/* The bins of a histogram: linear up to the 99th percentile, the rest in
 * one bin past it; or on a 1-2-5 logarithmic ladder. */
function bins(s, log) {
	var h = s.h, b = [];
	if (log) {
		for (var i = 0; i < h.log.c.length; i++)
			b.push({ lo: h.log.e[i], hi: h.log.e[i + 1], c: h.log.c[i] });
	} else {
		for (var k = 0; k < h.c.length; k++)
			b.push({ lo: h.lo + k * h.w, hi: h.lo + (k + 1) * h.w, c: h.c[k] });
		if (h.over)
			b.push({ lo: h.lo + h.c.length * h.w, hi: h.max, c: h.over, over: true });
	}
	return b;
}

/* The bin edges to label: in linear bins, those at a round multiple (a
 * 1-2-5 step, wide enough for its label); on the logarithmic ladder,
 * every edge or every other. The overflow bin's edge always. */
function labelledEdges(b, log, width) {
	var n = b.length, room = Math.max(1, Math.floor(width / 58)), out = [];
	if (!n)
		return out;
	if (log) {
		for (var k = 0, every = Math.ceil((n + 1) / room); k <= n; k += every)
			out.push(k);
		return out;
	}
	var regular = b[n - 1].over ? n - 1 : n, w = b[0].hi - b[0].lo;
	var step = niceStep(w * Math.max(1, Math.ceil((regular + 1) / room)));
	for (var e = 0; e <= regular; e++) {
		var v = b[0].lo + e * w, q = v / step;
		if (Math.abs(q - Math.round(q)) < 1e-6)
			out.push(e);
	}
	if (regular < n && out[out.length - 1] !== regular) { /* where the overflow begins */
		if (out.length && regular - out[out.length - 1] < (n + 1) / room)
			out.pop(); /* its label would run into this one */
		out.push(regular);
	}
	return out;
}

function Histogram(el, s, name, colour, log, marks) {
	var b = bins(s, log), self = this;
	this.b = b;
	this.s = s;
	this.el = el;
	var xs = b.map(function (x, k) { return k; }), ys = b.map(function (x) { return x.c; });
	var unit = s.unit === 'Hz' ? 1 : 1000;
	function edge(k) {
		if (k >= b.length)
			return b.length ? b[b.length - 1].hi : 0;
		return b[k].lo;
	}
	var opts = {
		width: 380,
		height: HEIGHT,
		legend: { show: false },
		scales: {
			x: { time: false, range: function () { return [0, Math.max(1, b.length)]; } },
			y: { range: function (u, lo, hi) { return [0, Math.max(1, hi) * 1.1]; } },
		},
		series: [{}, {
			fill: colour + 'cc', stroke: colour, width: 0,
			paths: uPlot.paths.bars({ size: [0.92, Infinity], align: 1 }),
			points: { show: false },
		}],
		axes: [
			{
				label: name + ' (' + unitLabel(s) + ')' + (log ? ', log bins' : ''), size: 42,
				splits: function (u) {
					return labelledEdges(b, log, Math.max(1, u.bbox.width / devicePixelRatio));
				},
				values: function (u, splits) {
					return splits.map(function (k) {
						var v = edge(k) / unit;
						var label = fixed(v, Math.abs(v) < 1 ? 4 : 3);
						return k === b.length - 1 && b[k] && b[k].over ? '≥' + label : label;
					});
				},
			},
			{
				label: 'count', size: axisSize,
				incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5,
					5e5, 1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8],
				values: function (u, vals) { return vals.map(function (v) { return count(v); }); },
			},
		],
		cursor: { drag: { x: false, y: false }, points: { show: false } },
		hooks: {
			setCursor: [function (u) { self.hover(u); }],
			draw: [function (u) { drawDeadlineBin(u, b, marks); }],
		},
	};
	var data = [xs, ys];
	if (marks) { /* the bins past the deadline in red over the others */
		opts.series.push({ fill: OVER + 'cc', stroke: OVER, width: 0,
			paths: uPlot.paths.bars({ size: [0.92, Infinity], align: 1 }),
			points: { show: false } });
		data.push(b.map(function (x) { return x.lo >= marks.dl * unit && x.c ? x.c : null; }));
	}
	this.u = new uPlot(opts, data, el);
	this.u.over.addEventListener('mouseleave', hideTip);
}
Histogram.prototype.hover = function (u) {
	var x = u.cursor.left;
	if (x === null || x < 0) {
		hideTip();
		return;
	}
	var k = Math.floor(u.posToVal(x, 'x'));
	var bin = this.b[k];
	if (!bin) {
		hideTip();
		return;
	}
	var s = this.s;
	var text = (bin.over ? 'past the 99th percentile: ' + shown(bin.lo, s.unit) + ' to ' +
		shown(bin.hi, s.unit) : shown(bin.lo, s.unit) + ' to ' + shown(bin.hi, s.unit)) +
		'\n' + plural(bin.c, s.what);
	var rect = u.over.getBoundingClientRect();
	showTip(text, rect.left + x, rect.top + u.cursor.top);
};
Histogram.prototype.destroy = function () {
	this.u.destroy();
};
