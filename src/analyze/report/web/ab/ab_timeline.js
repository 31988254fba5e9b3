/*
 * ab_timeline.js - the A/B page's timeline: both recordings' instances in
 * one chart, each at its time since its own recording began, in its side's
 * colour. It joins the page's one time view (view.js): a drag zooms every
 * timeline, a double-click shows the whole; hover names the point.
 */
var SIDE_COLOURS = ['#4e79a7', '#e8731a'];
var SIDE_NAMES = ['base', 'new'];

/* sides: the two series ({x µs, y µs, i?, n}), either may be empty; what:
 * an instance's word ("run"). */
function ABTimeline(el, sides, name, what) {
	var self = this;
	this.el = el;
	this.what = what;
	this.sides = sides.map(function (s) { return prepare(s); });
	this.keep = [[], []];
	this.at = []; /* per merged point: [side, index in its series] of each series */
	var series = [{ label: 'time (s)' }];
	this.sides.forEach(function (s, k) {
		series.push({
			label: SIDE_NAMES[k], stroke: SIDE_COLOURS[k], width: 1.2,
			paths: function () { return null; },
			/* base larger, under new: where both sides lie, base rings new */
			points: { show: true, space: 0, size: k ? 3 : 6, fill: SIDE_COLOURS[k],
				stroke: SIDE_COLOURS[k] },
		});
	});
	var opts = {
		width: Math.max(200, el.clientWidth),
		height: HEIGHT,
		legend: { show: false },
		scales: {
			x: { time: false, auto: false, range: function () { return [view.min, view.max]; } },
			y: { range: function (u, lo, hi) {
				if (lo === null || hi === null || !isFinite(lo))
					return [0, 1];
				return [Math.min(0, lo), hi > 0 ? hi * 1.08 : 1];
			} },
		},
		series: series,
		axes: [
			{ label: 'time since each recording began (s)', size: 42 },
			{ label: name + ' (ms)', size: axisSize, values: function (u, vals) {
				return vals.map(function (v) { return fixed(v, 6); });
			} },
		],
		cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
		hooks: {
			setSelect: [selectToZoom],
			setCursor: [function (u) { self.hover(u); }],
		},
	};
	this.u = new uPlot(opts, this.thinned(opts.width), el);
	onTimeAxis(this.u);
	this.u.over.addEventListener('mouseleave', hideTip);
	linked.push(this);
}

/* Each side thinned to the view, then merged on one x array (a side's
 * value null where the point is the other's). */
ABTimeline.prototype.thinned = function (width) {
	var px = Math.max(50, Math.round(width)), self = this;
	this.keep = this.sides.map(function (s) { return thin(s.X, s.Y, view.min, view.max, px); });
	var a = this.keep[0], b = this.keep[1], s0 = this.sides[0], s1 = this.sides[1];
	var xs = [], y0 = [], y1 = [], i = 0, j = 0;
	self.at = [];
	while (i < a.length || j < b.length) {
		var xa = i < a.length ? s0.X[a[i]] : Infinity, xb = j < b.length ? s1.X[b[j]] : Infinity;
		if (xa <= xb) {
			xs.push(xa);
			y0.push(s0.Y[a[i]]);
			y1.push(null);
			self.at.push([0, a[i++]]);
		} else {
			xs.push(xb);
			y0.push(null);
			y1.push(s1.Y[b[j]]);
			self.at.push([1, b[j++]]);
		}
	}
	return [xs, y0, y1];
};
ABTimeline.prototype.setView = function () {
	var u = this.u;
	u.setData(this.thinned(u.bbox.width / devicePixelRatio || u.width), false);
	u.setScale('x', { min: view.min, max: view.max });
};
/* The point drawn nearest the cursor, of either side: [side, index], or
 * null. */
ABTimeline.prototype.nearest = function (u) {
	var cx = u.cursor.left, cy = u.cursor.top;
	if (cx === null || cx < 0 || !this.at.length)
		return null;
	var xs = u.data[0], mid = lowerBound(xs, u.posToVal(cx, 'x')), best = null, bestD = 400;
	for (var m = Math.max(0, mid - 8); m < Math.min(xs.length, mid + 8); m++) {
		var side = this.at[m][0], y = u.data[1 + side][m];
		var dx = u.valToPos(xs[m], 'x') - cx, dy = u.valToPos(y, 'y') - cy;
		if (dx * dx + dy * dy < bestD) {
			bestD = dx * dx + dy * dy;
			best = this.at[m];
		}
	}
	return best;
};
ABTimeline.prototype.hover = function (u) {
	var p = this.nearest(u);
	if (!p) {
		hideTip();
		return;
	}
	var s = this.sides[p[0]], k = p[1], rect = u.over.getBoundingClientRect();
	var number = s.i ? s.i[k] : k;
	showTip(SIDE_NAMES[p[0]] + ': ' + this.what + ' #' + count(number) + '\nat ' + seconds(s.X[k]) +
		'\n' + shown(s.y[k], 'ms'), rect.left + u.valToPos(s.X[k], 'x'),
		rect.top + u.valToPos(s.Y[k], 'y'));
};
/* Where a side's greatest value is drawn (clientX, clientY), for tests:
 * of its points with none of the other side's within 8 px (the one
 * hovered is then surely its own), else of them all. */
ABTimeline.prototype.greatest = function (side) {
	var u = this.u, ys = u.data[1 + side], other = u.data[2 - side], best = -1, alone = -1;
	function apart(m) {
		var x = u.valToPos(u.data[0][m], 'x'), y = u.valToPos(ys[m], 'y');
		for (var k = Math.max(0, m - 12); k < Math.min(ys.length, m + 13); k++)
			if (other[k] !== null && Math.abs(u.valToPos(u.data[0][k], 'x') - x) < 8 &&
			    Math.abs(u.valToPos(other[k], 'y') - y) < 8)
				return false;
		return true;
	}
	for (var m = 0; m < ys.length; m++) {
		if (ys[m] === null)
			continue;
		if (best < 0 || ys[m] > ys[best])
			best = m;
		if ((alone < 0 || ys[m] > ys[alone]) && apart(m))
			alone = m;
	}
	best = alone >= 0 ? alone : best;
	if (best < 0)
		return null;
	var r = u.over.getBoundingClientRect();
	return { x: r.left + u.valToPos(u.data[0][best], 'x'), y: r.top + u.valToPos(ys[best], 'y') };
};
ABTimeline.prototype.resize = function () {
	this.u.setSize({ width: Math.max(200, this.el.clientWidth), height: HEIGHT });
	this.setView();
};
ABTimeline.prototype.destroy = function () {
	linked.splice(linked.indexOf(this), 1);
	this.u.destroy();
};
