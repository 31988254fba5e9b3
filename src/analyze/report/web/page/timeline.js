/*
 * timeline.js - a metric against time (uPlot): points, or steps for a
 * frequency; hover shows each point, a click can pick one.
 */
/* A metric against time: points (a line of steps for a frequency); hover
 * shows each point, onPick(index) gets the point clicked. */
function Timeline(el, s, name, colour, onPick, marks) {
	var self = this;
	prepare(s);
	this.s = s;
	this.el = el;
	this.keep = [];
	this.marks = marks || null; /* a deadline and a snapshot's misses (deadline.js) */
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
				if (self.marks)
					hi = Math.max(hi, self.marks.dl);
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
			draw: [function (u) { drawMarks(u, self.marks); }],
		},
	};
	if (this.marks)
		opts.series.push(overSeries());
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
	return this.marks ? [xs, ys, overDeadline(ys, this.marks.dl)] : [xs, ys];
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
