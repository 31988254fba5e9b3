/*
 * report.js - the script of caret report's page (inlined by the build).
 * It draws every chart from the data the analyzer wrote into the page
 * (#caret-data) with uPlot: the timelines on one shared time axis (seconds
 * since the trace began) that every zoom and pan moves at once, thinned to
 * the least and the greatest value of each pixel column so that no
 * outlier disappears; histograms; the callbacks' scheduling; and the flow
 * of a path's instances through its nodes. Charts are drawn when their
 * card comes near the screen. window.caretReport is what tests read.
 */
(function () {
	'use strict';

	var DATA = JSON.parse(document.getElementById('caret-data').textContent);
	var CHARTS = DATA.charts;
	var DURATION = Math.max(DATA.dur / 1e6, 1e-6); /* seconds */
	var PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948',
		'#b07aa1', '#ff9da7', '#9c755f', '#17becf', '#8cd17d', '#d37295'];
	var HEIGHT = 230;
	var errors = [];

	/* One colour per callback (or topic, path) wherever it is drawn. */
	var colours = {}, coloursUsed = 0;
	function colourFor(name) {
		if (!(name in colours))
			colours[name] = PALETTE[coloursUsed++ % PALETTE.length];
		return colours[name];
	}

	/* ---- numbers ------------------------------------------------------------ */

	function fixed(v, digits) {
		var s = v.toFixed(digits);
		return s.indexOf('.') < 0 ? s : s.replace(/0+$/, '').replace(/\.$/, '');
	}
	/* a value in the series' unit as shown: ms (given in µs) or Hz */
	function shown(v, unit) {
		if (unit === 'Hz')
			return fixed(v, 0) + ' Hz';
		var ms = v / 1000;
		return fixed(ms, Math.abs(ms) < 1 ? 4 : Math.abs(ms) < 100 ? 3 : 1) + ' ms';
	}
	function seconds(s) {
		return fixed(s, 6) + ' s';
	}
	function count(n) {
		return Math.round(n).toLocaleString('en-US');
	}
	function plural(n, word) {
		return count(n) + ' ' + word + (n === 1 ? '' : 's');
	}

	/* ---- the tooltip ----------------------------------------------------- */

	var tip = document.createElement('div');
	tip.id = 'tip';
	document.body.appendChild(tip);
	function showTip(text, x, y) {
		tip.textContent = text;
		tip.style.display = 'block';
		var w = tip.offsetWidth, h = tip.offsetHeight;
		tip.style.left = Math.min(x + 14, window.innerWidth - w - 8) + 'px';
		tip.style.top = (y + 14 + h > window.innerHeight ? y - h - 10 : y + 14) + 'px';
	}
	function hideTip() {
		tip.style.display = 'none';
	}

	/* ---- the shared time view ---------------------------------------------- */

	var view = { min: 0, max: DURATION };
	var linked = []; /* charts on the time axis: each has setView() */

	function setView(min, max) {
		var span = Math.min(Math.max(max - min, 1e-6), DURATION);
		min = Math.max(0, Math.min(min, DURATION - span));
		view.min = min;
		view.max = min + span;
		for (var i = 0; i < linked.length; i++)
			linked[i].setView();
		document.getElementById('view-range').textContent =
			fixed(view.min, 6) + ' – ' + fixed(view.max, 6) + ' s';
	}
	function zoom(factor, at) {
		if (at === undefined)
			at = (view.min + view.max) / 2;
		setView(at - (at - view.min) * factor, at + (view.max - at) * factor);
	}
	function pan(fraction) {
		var span = view.max - view.min;
		setView(view.min + span * fraction, view.max + span * fraction);
	}

	/* The common handling of a chart on the time axis: a drag selects the
	 * range to zoom to, ctrl+wheel zooms at the cursor, shift+wheel pans,
	 * a double-click shows the whole trace. */
	function onTimeAxis(u) {
		u.over.addEventListener('wheel', function (e) {
			if (!e.ctrlKey && !e.metaKey && !e.shiftKey)
				return; /* the page scrolls */
			e.preventDefault();
			var delta = e.deltaY || e.deltaX;
			if (e.shiftKey)
				pan(delta > 0 ? 0.1 : -0.1);
			else
				zoom(delta < 0 ? 0.8 : 1.25, u.posToVal(e.offsetX, 'x'));
		}, { passive: false });
		u.over.addEventListener('dblclick', function () {
			setView(0, DURATION);
		});
	}
	function selectToZoom(u) {
		if (u.select.width > 3) {
			var a = u.posToVal(u.select.left, 'x');
			var b = u.posToVal(u.select.left + u.select.width, 'x');
			u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
			setView(a, b);
		}
	}

	/* ---- thinning ------------------------------------------------------------ */

	function lowerBound(xs, v) {
		var lo = 0, hi = xs.length;
		while (lo < hi) {
			var mid = (lo + hi) >>> 1;
			if (xs[mid] < v)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}

	/* The indexes of the points of [min, max] kept to draw px columns: in
	 * each column the least and the greatest value, in time order. */
	function thin(xs, ys, min, max, px) {
		var from = lowerBound(xs, min), to = lowerBound(xs, max + (max - min) * 1e-9);
		var keep = [];
		if (to - from <= 2 * px) {
			for (var i = from; i < to; i++)
				keep.push(i);
			return keep;
		}
		var scale = px / (max - min), column = -1, low = -1, high = -1;
		for (var k = from; k <= to; k++) {
			var c = k < to ? Math.min(px - 1, Math.floor((xs[k] - min) * scale)) : -2;
			if (c !== column && low >= 0) {
				keep.push(Math.min(low, high));
				if (low !== high)
					keep.push(Math.max(low, high));
			}
			if (k === to)
				break;
			if (c !== column) {
				column = c;
				low = high = k;
			}
			if (ys[k] < ys[low])
				low = k;
			if (ys[k] > ys[high])
				high = k;
		}
		return keep;
	}

	/* ---- a series' arrays, made once ---------------------------------------- */

	function prepare(s) {
		if (s.X)
			return s;
		var n = s.x.length, unit = s.unit === 'Hz' ? 1 : 1000;
		s.X = new Float64Array(n);
		s.Y = new Float64Array(n);
		for (var i = 0; i < n; i++) {
			s.X[i] = s.x[i] / 1e6;
			s.Y[i] = s.y[i] / unit;
		}
		return s;
	}
	function unitLabel(s) {
		return s.unit === 'Hz' ? 'Hz' : 'ms';
	}

	/* ---- timeline -------------------------------------------------------------- */

	/* A metric against time: points (a line of steps for a frequency); hover
	 * shows each point, onPick(index) gets the point clicked. */
	function Timeline(el, s, name, colour, onPick) {
		var self = this;
		prepare(s);
		this.s = s;
		this.el = el;
		this.keep = [];
		var steps = s.unit === 'Hz';
		var opts = {
			width: Math.max(200, el.clientWidth),
			height: HEIGHT,
			legend: { show: false },
			scales: {
				x: { time: false, auto: false, range: function () { return [view.min, view.max]; } },
				y: { range: function (u, lo, hi) {
					if (lo === null || hi === null || !isFinite(lo))
						return [0, 1];
					var top = hi > 0 ? hi * 1.08 : 1;
					return [Math.min(0, lo), top];
				} },
			},
			series: [
				{ label: 'time (s)' },
				{
					label: name,
					stroke: colour,
					width: 1.2,
					paths: steps ? uPlot.paths.stepped({ align: 1 }) : function () { return null; },
					points: { show: !steps, space: 0, size: 4, fill: colour, stroke: colour },
				},
			],
			axes: [
				{ label: 'time since the trace began (s)', size: 42 },
				{ label: name + ' (' + unitLabel(s) + ')', size: axisSize, values: function (u, vals) {
					return vals.map(function (v) { return fixed(v, 6); });
				} },
			],
			cursor: {
				drag: { x: true, y: false, setScale: false },
				points: { show: false },
				dataIdx: function (u, si, closest) { return nearestPoint(u, closest); },
			},
			hooks: {
				setSelect: [selectToZoom],
				setCursor: [function (u) { self.hover(u); }],
			},
		};
		this.u = new uPlot(opts, this.thinned(opts.width), el);
		onTimeAxis(this.u);
		this.u.over.addEventListener('mouseleave', hideTip);
		if (onPick)
			this.u.over.addEventListener('click', function () {
				var i = self.u.cursor.idx;
				if (i !== null && i !== undefined && self.keep.length)
					onPick(self.original(i));
			});
		linked.push(this);
	}
	Timeline.prototype.thinned = function (width) {
		var s = this.s;
		this.keep = thin(s.X, s.Y, view.min, view.max, Math.max(50, Math.round(width)));
		var n = this.keep.length, xs = new Array(n), ys = new Array(n);
		for (var i = 0; i < n; i++) {
			xs[i] = s.X[this.keep[i]];
			ys[i] = s.Y[this.keep[i]];
		}
		return [xs, ys];
	};
	Timeline.prototype.original = function (i) {
		var k = this.keep[i];
		return this.s.i ? this.s.i[k] : k;
	};
	Timeline.prototype.setView = function () {
		var u = this.u;
		u.setData(this.thinned(u.bbox.width / devicePixelRatio || u.width), false);
		u.setScale('x', { min: view.min, max: view.max });
	};
	Timeline.prototype.hover = function (u) {
		var i = u.cursor.idx;
		if (i === null || i === undefined || u.cursor.left < 0 || !this.keep.length) {
			hideTip();
			return;
		}
		var rect = u.over.getBoundingClientRect(), s = this.s;
		var k = this.keep[i];
		var text = s.what + ' #' + count(this.original(i)) + '\n' + 'at ' + seconds(s.X[k]) +
			'\n' + shown(s.y[k], s.unit);
		showTip(text, rect.left + u.valToPos(s.X[k], 'x'), rect.top + u.valToPos(s.Y[k], 'y'));
	};
	Timeline.prototype.resize = function () {
		this.u.setSize({ width: Math.max(200, this.el.clientWidth), height: HEIGHT });
		this.setView();
	};
	Timeline.prototype.destroy = function () {
		linked.splice(linked.indexOf(this), 1);
		this.u.destroy();
	};

	/* Of the points next to the one nearest in time, the one nearest the
	 * cursor (several points share a pixel column). */
	function nearestPoint(u, closest) {
		if (closest === null || closest === undefined)
			return closest;
		var cx = u.cursor.left, cy = u.cursor.top, best = closest, bestD = Infinity;
		var xs = u.data[0], ys = u.data[1];
		for (var i = Math.max(0, closest - 3); i <= Math.min(xs.length - 1, closest + 3); i++) {
			var dx = u.valToPos(xs[i], 'x') - cx, dy = u.valToPos(ys[i], 'y') - cy;
			var d = dx * dx + dy * dy;
			if (d < bestD) {
				bestD = d;
				best = i;
			}
		}
		return best;
	}

	/* An axis as wide as its longest label. */
	function axisSize(u, values, axis, cycle) {
		var longest = 0;
		(values || []).forEach(function (v) { longest = Math.max(longest, String(v).length); });
		return Math.max(44, longest * 7 + 30);
	}

	/* ---- histogram ------------------------------------------------------------- */

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

	function Histogram(el, s, name, colour, log) {
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
			hooks: { setCursor: [function (u) { self.hover(u); }] },
		};
		this.u = new uPlot(opts, [xs, ys], el);
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

	/* ---- cards: a callback, a topic or a path, one metric at a time ------------ */

	var sections = {}; /* section id -> { metric, log, cards[] } */
	var observer = 'IntersectionObserver' in window ? new IntersectionObserver(function (entries) {
		entries.forEach(function (e) {
			if (e.isIntersecting)
				e.target.caretCard.draw();
		});
	}, { rootMargin: '600px 0px' }) : null;

	function Card(el, section) {
		this.el = el;
		this.section = section;
		this.data = CHARTS[el.getAttribute('data-chart')];
		this.colour = colourFor(this.data.title);
		this.drawn = false;
		this.charts = [];
		el.caretCard = this;
		if (observer)
			observer.observe(el);
	}
	Card.prototype.metricNames = function () {
		return Object.keys(this.data.m);
	};
	Card.prototype.clear = function () {
		this.charts.forEach(function (c) { c.destroy(); });
		this.charts = [];
		var tl = this.el.querySelector('.tl'), hist = this.el.querySelector('.hist');
		tl.textContent = '';
		hist.textContent = '';
	};
	Card.prototype.draw = function () {
		if (this.el.classList.contains('hidden'))
			return;
		var self = this, st = sections[this.section];
		this.clear();
		this.drawn = true;
		var name = st.metric, s = this.data.m[name];
		var tl = this.el.querySelector('.tl'), hist = this.el.querySelector('.hist');
		if (!s || !s.n) {
			tl.innerHTML = '<p class="empty">No ' + name + (s ? ': no instance in the trace.' :
				' for this one.') + '</p>';
			return;
		}
		var stats = s.s ? 'n ' + count(s.n) + ' · p50 ' + shown(s.s.p50, s.unit) + ' · p99 ' +
			shown(s.s.p99, s.unit) + ' · max ' + shown(s.s.max, s.unit) : '';
		var title = document.createElement('p');
		title.className = 'chart-title';
		title.textContent = name + ' — ' + stats;
		tl.appendChild(title);
		var pick = this.data.inst && name === 'end to end' ? function (i) { self.pick(i); } : null;
		this.charts.push(new Timeline(tl, s, name, this.colour, pick));
		var ht = document.createElement('p');
		ht.className = 'chart-title';
		ht.textContent = st.log ? 'histogram, logarithmic bins' : 'histogram, the last bin past p99';
		hist.appendChild(ht);
		this.charts.push(new Histogram(hist, s, name, this.colour, st.log));
		if (this.data.inst && !this.flowsDrawn) {
			this.flowsDrawn = true;
			drawFlows(this);
		}
	};
	Card.prototype.redraw = function () {
		if (this.drawn)
			this.draw();
	};
	Card.prototype.pick = function (position) {
		drawFlow(this, position, 'clicked', true);
	};

	function Switch(container, section, names) {
		var st = sections[section];
		container.classList.add('switch');
		var label = document.createElement('span');
		label.className = 'label';
		label.textContent = 'show';
		container.appendChild(label);
		function group(values, current, set) {
			var buttons = values.map(function (v) {
				var b = document.createElement('button');
				b.type = 'button';
				b.textContent = v;
				b.className = v === current ? 'on' : '';
				b.addEventListener('click', function () {
					buttons.forEach(function (x) { x.className = x === b ? 'on' : ''; });
					set(v);
					st.cards.forEach(function (c) { c.redraw(); });
				});
				container.appendChild(b);
				return b;
			});
		}
		group(names, st.metric, function (v) { st.metric = v; });
		var bl = document.createElement('span');
		bl.className = 'label';
		bl.textContent = ' histogram bins';
		container.appendChild(bl);
		group(['linear, overflow past p99', 'logarithmic'], 'linear, overflow past p99',
			function (v) { st.log = v === 'logarithmic'; });
	}

	function setUpSection(id) {
		var section = document.getElementById(id);
		if (!section)
			return;
		var st = sections[id] = { metric: null, log: false, cards: [] };
		var names = [];
		section.querySelectorAll('.card[data-chart]').forEach(function (el) {
			var c = new Card(el, id);
			st.cards.push(c);
			c.metricNames().forEach(function (n) {
				if (names.indexOf(n) < 0)
					names.push(n);
			});
		});
		st.metric = names[0];
		var sw = section.querySelector('.metric-switch');
		if (sw && names.length)
			Switch(sw, id, names);
	}

	/* ---- a path's instances through its nodes ------------------------------------ */

	function instanceAt(data, position) {
		var inst = data.inst;
		if (!inst.k)
			return position < inst.s.length ? position : -1;
		if (!inst.index) {
			inst.index = {};
			inst.k.forEach(function (p, j) { inst.index[p] = j; });
		}
		var j = inst.index[position];
		return j === undefined ? -1 : j;
	}

	/* The flow's time, to draw every flow of a path on one scale (the
	 * longest of the worst instances, or the instance's own if longer). */
	function flowTotal(data, j) {
		var h = data.hops.length, total = 0;
		for (var k = 0; k < h; k++) {
			var d = data.inst.h[j * h + k];
			if (d === null)
				break;
			total += Math.max(0, d);
		}
		return total;
	}
	function drawFlows(card) {
		card.flowScale = 0;
		card.data.worst.forEach(function (w) {
			var j = instanceAt(card.data, w.pos);
			if (j >= 0)
				card.flowScale = Math.max(card.flowScale, flowTotal(card.data, j));
		});
		card.data.worst.forEach(function (w) {
			drawFlow(card, w.pos, w.name, false);
		});
	}

	/* The flow of the instance at `position` of the timeline, in a box named
	 * `name` (the one named so before is replaced). */
	function drawFlow(card, position, name, picked) {
		var box = card.el.querySelector('.flows');
		if (!box)
			return;
		var data = card.data, j = instanceAt(data, position);
		var old = box.querySelector('.flow[data-name="' + name + '"]');
		var el = document.createElement('div');
		el.className = 'flow' + (picked ? ' picked' : '');
		el.setAttribute('data-name', name);
		if (old)
			box.replaceChild(el, old);
		else if (picked)
			box.insertBefore(el, box.firstChild);
		else
			box.appendChild(el);
		var h5 = document.createElement('h5');
		el.appendChild(h5);
		if (j < 0) {
			h5.textContent = name + ': instance #' + position + ' is not in the page (thinned)';
			return;
		}
		var h = data.hops.length, hops = data.inst.h.slice(j * h, j * h + h);
		var e2e = data.m['end to end'], k = e2e.i ? e2e.i.indexOf(position) : position;
		var latency = k >= 0 && k < e2e.y.length ? shown(e2e.y[k], 'ms') : '';
		h5.textContent = name + ': instance #' + count(position) + ' (message #' +
			count(data.inst.m[j]) + ' of the first node), ' +
			'its callback at ' + seconds(data.inst.s[j] / 1e6) + (latency ? ', end to end ' +
			latency : '');
		var scale = Math.max(card.flowScale || 0, flowTotal(data, j));
		el.appendChild(flowSvg(data.nodes, data.hops, hops, box.clientWidth || 900, scale));
		if (picked)
			el.scrollIntoView({ block: 'nearest' });
	}

	var SVG = 'http://www.w3.org/2000/svg';
	function svgNode(tag, attrs, text) {
		var e = document.createElementNS(SVG, tag);
		for (var a in attrs)
			e.setAttribute(a, attrs[a]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	/* Lanes, one per node; a bar while a node works on the message, an arrow
	 * while it travels; on the instance's own time axis (ms from its start). */
	function flowSvg(nodes, labels, hops, width, scale) {
		var left = 210, right = 16, laneH = 30, top = 6;
		var total = Math.max(scale, 1);
		var height = top + laneH * nodes.length + 28, plot = Math.max(100, width - left - right);
		var svg = svgNode('svg', { viewBox: '0 0 ' + width + ' ' + height, height: height });
		var x = function (us) { return left + plot * us / total; };
		nodes.forEach(function (n, i) {
			var y = top + laneH * i + laneH / 2;
			svg.appendChild(svgNode('line', { x1: left, x2: left + plot, y1: y, y2: y, class: 'lane' }));
			var t = svgNode('text', { x: 4, y: y + 4, class: 'node-name' },
				n.length > 30 ? n.slice(0, 12) + '…' + n.slice(-17) : n);
			t.appendChild(svgNode('title', {}, n));
			svg.appendChild(t);
		});
		var t = 0;
		for (var k = 0; k < hops.length; k++) {
			var d = hops[k];
			if (d === null)
				break;
			d = Math.max(0, d);
			var lane = Math.ceil(k / 2), y = top + laneH * lane + laneH / 2, colour = PALETTE[k % PALETTE.length];
			var shape;
			if (k % 2 === 0) {
				shape = svgNode('rect', { x: x(t), y: y - 7, width: Math.max(1.5, x(t + d) - x(t)),
					height: 14, rx: 2, fill: colour, class: 'pt' });
			} else {
				var y0 = y - laneH + 7, y1 = y - 7;
				shape = svgNode('line', { x1: x(t), y1: y0, x2: x(t + d), y2: y1, stroke: colour,
					'stroke-width': 2, class: 'pt' });
			}
			shape.appendChild(svgNode('title', {}, labels[k] + ': ' + shown(d, 'ms')));
			svg.appendChild(shape);
			t += d;
		}
		/* the axis: round steps of ms */
		var axisY = top + laneH * nodes.length + 4;
		var step = niceStep(total / 1000 / 8);
		for (var v = 0; v <= total / 1000 + 1e-9; v += step) {
			var px = x(v * 1000);
			svg.appendChild(svgNode('line', { x1: px, x2: px, y1: axisY, y2: axisY + 4, stroke: '#8c959f' }));
			svg.appendChild(svgNode('text', { x: px, y: axisY + 16, 'text-anchor': 'middle' },
				fixed(v, 4)));
		}
		svg.appendChild(svgNode('text', { x: 4, y: axisY + 16 }, 'ms from its start'));
		return svg;
	}
	function niceStep(raw) {
		var p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
		var m = raw / p;
		return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
	}

	/* ---- callback scheduling ------------------------------------------------------ */

	function Sched(el, d) {
		var self = this;
		this.d = d;
		this.el = el;
		this.mark = null;
		var n = d.s.length;
		this.colour = d.cbs.map(colourFor);
		this.start = new Float64Array(n);
		this.end = new Float64Array(n);
		for (var i = 0; i < n; i++) {
			this.start[i] = d.s[i] / 1e6;
			this.end[i] = (d.s[i] + d.d[i]) / 1e6;
		}
		this.longest = d.lanes.map(function (l) {
			var m = 0;
			for (var i = l.at; i < l.at + l.n; i++)
				m = Math.max(m, self.end[i] - self.start[i]);
			return m;
		});
		var controls = document.createElement('div');
		controls.className = 'sched-controls';
		controls.appendChild(document.createTextNode('highlight the runs of a path: '));
		var select = document.createElement('select');
		select.innerHTML = '<option value="">none</option>';
		d.paths.forEach(function (p, k) {
			var o = document.createElement('option');
			o.value = String(k);
			o.textContent = p.name + ' (' + plural(p.runs.length, 'run') + ')';
			select.appendChild(o);
		});
		select.addEventListener('change', function () {
			self.setMark(select.value === '' ? null : d.paths[+select.value].runs);
		});
		controls.appendChild(select);
		var legend = document.createElement('ul');
		legend.className = 'legend';
		d.cbs.forEach(function (name, k) {
			var li = document.createElement('li');
			li.innerHTML = '<i></i>';
			li.firstChild.style.background = colourFor(name);
			li.appendChild(document.createTextNode(name));
			legend.appendChild(li);
		});
		el.appendChild(controls);
		this.lanes = d.lanes.length;
		this.laneH = this.lanes > 40 ? 12 : 24;
		var plotEl = document.createElement('div');
		el.appendChild(plotEl);
		el.appendChild(legend);
		if (d.paths.length) {
			select.value = '0';
			this.setMark(d.paths[0].runs, true);
		}
		var opts = {
			width: Math.max(300, el.clientWidth),
			height: 92 + this.lanes * this.laneH,
			legend: { show: false },
			scales: {
				x: { time: false, auto: false, range: function () { return [view.min, view.max]; } },
				y: { auto: false, range: function () { return [0, self.lanes]; } },
			},
			series: [{}, { show: false }],
			axes: [
				{ label: 'time since the trace began (s)', size: 42 },
				{
					size: 270, gap: 4,
					splits: function () { return d.lanes.map(function (l, i) { return self.lanes - i - 0.5; }); },
					values: function () {
						return d.lanes.map(function (l) {
							var s = l.executor.split(' · ')[0] + ' · ' + l.thread;
							return s.length > 38 ? s.slice(0, 37) + '…' : s;
						});
					},
					grid: { show: false },
					ticks: { show: false },
				},
			],
			cursor: {
				drag: { x: true, y: false, setScale: false },
				points: { show: false },
				y: false,
			},
			hooks: {
				setSelect: [selectToZoom],
				draw: [function (u) { self.paint(u); }],
				setCursor: [function (u) { self.hover(u); }],
			},
		};
		this.u = new uPlot(opts, [[0, DURATION], [null, null]], plotEl);
		onTimeAxis(this.u);
		this.u.over.addEventListener('mouseleave', hideTip);
		linked.push(this);
	}
	Sched.prototype.setMark = function (runs, quiet) {
		if (!runs) {
			this.mark = null;
		} else {
			this.mark = new Uint8Array(this.d.s.length);
			for (var i = 0; i < runs.length; i++)
				this.mark[runs[i]] = 1;
		}
		if (!quiet)
			this.u.redraw(false);
	};
	/* Each lane's runs of the view as bars; runs that fall in the same
	 * pixel column with the same look are one bar (a trace has far more
	 * runs than the view has pixels). */
	Sched.prototype.paint = function (u) {
		var ctx = u.ctx, d = this.d, self = this;
		var bb = u.bbox, laneH = bb.height / this.lanes, px = devicePixelRatio;
		var pad = laneH * 0.18, foot = 3 * px;
		ctx.save();
		ctx.beginPath();
		ctx.rect(bb.left, bb.top, bb.width, bb.height);
		ctx.clip();
		d.lanes.forEach(function (l, li) {
			var y = bb.top + li * laneH;
			ctx.globalAlpha = 1;
			ctx.fillStyle = li % 2 ? '#f6f8fa' : '#ffffff';
			ctx.fillRect(bb.left, y, bb.width, laneH);
			var from = lowerBound(self.start.subarray(l.at, l.at + l.n), view.min - self.longest[li]);
			var bar = null; /* the bar being widened: x0, x1, colour, marked */
			function flush() {
				if (!bar)
					return;
				ctx.globalAlpha = self.mark && !bar.marked ? 0.35 : 1;
				ctx.fillStyle = bar.colour;
				ctx.fillRect(bar.x0, y + pad, Math.max(px, bar.x1 - bar.x0),
					laneH - 2 * pad - (bar.marked ? foot : 0));
				if (bar.marked) { /* a dark foot under the run: seen however thin it is */
					ctx.globalAlpha = 1;
					ctx.fillStyle = '#1f2328';
					ctx.fillRect(bar.x0, y + laneH - pad - foot, Math.max(px, bar.x1 - bar.x0), foot);
				}
				bar = null;
			}
			for (var k = l.at + from; k < l.at + l.n && self.start[k] <= view.max; k++) {
				if (self.end[k] < view.min)
					continue;
				var x0 = u.valToPos(self.start[k], 'x', true), x1 = u.valToPos(self.end[k], 'x', true);
				var colour = self.colour[d.cb[k]], marked = !!(self.mark && self.mark[k]);
				if (bar && bar.colour === colour && bar.marked === marked && x0 - bar.x1 < px) {
					bar.x1 = Math.max(bar.x1, x1);
					continue;
				}
				flush();
				bar = { x0: x0, x1: x1, colour: colour, marked: marked };
			}
			flush();
		});
		ctx.restore();
	};
	Sched.prototype.runAt = function (lane, t, tolerance) {
		var l = this.d.lanes[lane];
		if (!l)
			return -1;
		var starts = this.start.subarray(l.at, l.at + l.n);
		var k = lowerBound(starts, t + 1e-12) - 1, best = -1, bestD = tolerance;
		for (var i = Math.max(0, k - 2); i <= Math.min(l.n - 1, k + 2); i++) {
			var s = this.start[l.at + i], e = this.end[l.at + i];
			var dist = t < s ? s - t : t > e ? t - e : 0;
			if (dist <= bestD) {
				bestD = dist;
				best = l.at + i;
			}
		}
		return best;
	};
	Sched.prototype.hover = function (u) {
		if (u.cursor.left === null || u.cursor.left < 0) {
			hideTip();
			return;
		}
		var lane = Math.floor(u.cursor.top / (u.bbox.height / devicePixelRatio) * this.lanes);
		var t = u.posToVal(u.cursor.left, 'x');
		var perPx = (view.max - view.min) / Math.max(1, u.bbox.width / devicePixelRatio);
		var k = this.runAt(lane, t, 3 * perPx);
		if (k < 0) {
			hideTip();
			return;
		}
		var d = this.d, l = d.lanes[lane];
		var open = d.open.indexOf(k) >= 0;
		var text = d.cbs[d.cb[k]] + '\n' + l.executor + '\n' + l.thread + ' (pid ' + l.pid + ')\nstart ' +
			seconds(this.start[k]) + '\n' + (open ? 'not ended inside the trace' : 'took ' +
			shown(d.d[k], 'ms')) + (this.mark && this.mark[k] ? '\ncarried a message of the path' : '');
		var rect = u.over.getBoundingClientRect();
		showTip(text, rect.left + u.cursor.left, rect.top + u.cursor.top);
	};
	Sched.prototype.setView = function () {
		this.u.setScale('x', { min: view.min, max: view.max });
	};
	Sched.prototype.resize = function () {
		this.u.setSize({ width: Math.max(300, this.el.clientWidth), height: 92 + this.lanes * this.laneH });
	};

	/* ---- search ------------------------------------------------------------------- */

	function setUpSearch() {
		var input = document.getElementById('search');
		var matches = document.createElement('span');
		matches.id = 'matches';
		input.parentNode.insertBefore(matches, input.nextSibling);
		function apply() {
			var q = input.value.trim().toLowerCase(), shownCards = 0, all = 0;
			['paths', 'callbacks', 'topics'].forEach(function (id) {
				var section = document.getElementById(id);
				if (!section)
					return;
				section.querySelectorAll('[data-name]').forEach(function (el) {
					var hit = !q || el.getAttribute('data-name').toLowerCase().indexOf(q) >= 0;
					el.classList.toggle('hidden', !hit);
					if (el.classList.contains('card')) {
						all++;
						shownCards += hit;
						if (hit && el.caretCard && !el.caretCard.drawn && !observer)
							el.caretCard.draw();
					}
				});
			});
			matches.textContent = q ? shownCards + ' of ' + all + ' shown' : '';
		}
		input.addEventListener('input', apply);
		document.querySelectorAll('svg.graph .node').forEach(function (g) {
			g.addEventListener('click', function () {
				input.value = g.getAttribute('data-name');
				apply();
				document.getElementById('callbacks').scrollIntoView();
			});
		});
		return apply;
	}

	/* ---- the page ------------------------------------------------------------------- */

	function start() {
		var t0 = performance.now();
		document.querySelectorAll('nav .toc a').forEach(function (a) {
			if (!document.getElementById(a.getAttribute('href').slice(1)))
				a.remove();
		});
		document.getElementById('zoom-in').addEventListener('click', function () { zoom(0.5); });
		document.getElementById('zoom-out').addEventListener('click', function () { zoom(2); });
		document.getElementById('pan-left').addEventListener('click', function () { pan(-0.25); });
		document.getElementById('pan-right').addEventListener('click', function () { pan(0.25); });
		document.getElementById('zoom-reset').addEventListener('click', function () {
			setView(0, DURATION);
		});
		['callbacks', 'topics', 'paths'].forEach(setUpSection);
		var sched = document.querySelector('.sched[data-chart]'), schedChart = null;
		if (sched)
			schedChart = new Sched(sched, CHARTS[sched.getAttribute('data-chart')]);
		setUpSearch();
		document.getElementById('view-range').textContent = '0 – ' + fixed(DURATION, 6) + ' s';
		if (!observer)
			Object.keys(sections).forEach(function (id) {
				sections[id].cards.forEach(function (c) { c.draw(); });
			});
		var width = window.innerWidth;
		window.addEventListener('resize', function () {
			if (window.innerWidth === width)
				return;
			width = window.innerWidth;
			linked.slice().forEach(function (c) { c.resize(); });
		});
		requestAnimationFrame(function () {
			api.readyMs = performance.now() - t0;
			api.ready = true;
		});
	}

	/* What tests read (tests/browser/report_check.mjs). */
	var api = window.caretReport = {
		ready: false,
		readyMs: 0,
		errors: errors,
		view: view,
		setView: setView,
		duration: DURATION,
		sections: sections,
		/* every chart on the time axis drawn now: its kind and x range */
		timeAxes: function () {
			return linked.map(function (c) {
				var x = c.u.scales.x;
				return { kind: c instanceof Sched ? 'sched' : 'timeline', min: x.min, max: x.max,
					points: c.keep ? c.keep.length : 0 };
			});
		},
		/* where on the screen the greatest value of a card's timeline is
		 * drawn (clientX, clientY), for a test's mouse */
		pointOf: function (el) {
			var t = el.caretCard && el.caretCard.charts[0];
			if (!t || !t.keep.length)
				return null;
			var u = t.u, best = 0;
			for (var i = 1; i < u.data[1].length; i++)
				if (u.data[1][i] > u.data[1][best])
					best = i;
			var r = u.over.getBoundingClientRect();
			return { x: r.left + u.valToPos(u.data[0][best], 'x'),
				y: r.top + u.valToPos(u.data[1][best], 'y') };
		},
		/* the middle of the longest run the scheduling view draws */
		runPoint: function () {
			var c = linked.filter(function (x) { return x instanceof Sched; })[0];
			if (!c)
				return null;
			var best = -1, lane = -1;
			c.d.lanes.forEach(function (l, li) {
				for (var k = l.at; k < l.at + l.n; k++)
					if (best < 0 || c.end[k] - c.start[k] > c.end[best] - c.start[best]) {
						best = k;
						lane = li;
					}
			});
			if (best < 0)
				return null;
			var u = c.u, r = u.over.getBoundingClientRect();
			var h = u.bbox.height / devicePixelRatio / c.lanes;
			return { x: r.left + u.valToPos((c.start[best] + c.end[best]) / 2, 'x'),
				y: r.top + h * (lane + 0.5) };
		},
		drawAll: function () {
			Object.keys(sections).forEach(function (id) {
				sections[id].cards.forEach(function (c) { if (!c.drawn) c.draw(); });
			});
		},
	};
	try {
		start();
	} catch (e) {
		errors.push(String(e && e.stack || e));
		throw e;
	}
})();
