/*
 * ab_distribution.js - the A/B page's distribution: both recordings on the
 * same bins (the share of each side's instances, so recordings of
 * different lengths compare), linear up to the greater p99 with an
 * overflow bin, or on a 1-2-5 logarithmic ladder; or both cumulative
 * distributions (the share at or below each latency). Hover gives each
 * side's count and share.
 */
var DISTRIBUTIONS = ['histogram', 'histogram, logarithmic bins', 'cumulative'];

/* d: the object's data (h: shared bins, cdf: each side's quantiles);
 * how: one of DISTRIBUTIONS. */
function ABDistribution(el, d, name, how) {
	var self = this;
	this.el = el;
	this.d = d;
	this.how = how;
	this.n = d.sides.map(function (s) { return s.n; });
	var opts = how === 'cumulative' ? this.cdfOptions(name) : this.histogramOptions(name,
		how !== 'histogram');
	opts.width = 380;
	opts.height = HEIGHT;
	opts.legend = { show: false };
	opts.cursor = { drag: { x: false, y: false }, points: { show: false } };
	opts.hooks = { setCursor: [function (u) { self.hover(u); }] };
	this.u = new uPlot(opts, this.data, el);
	this.u.over.addEventListener('mouseleave', hideTip);
}

/* Each side's bins (histogram.js's bins() of the shared edges). */
ABDistribution.prototype.histogramOptions = function (name, log) {
	var h = this.d.h, self = this;
	this.bins = [0, 1].map(function (k) {
		return bins({ h: { lo: h.lo, w: h.w, c: h.c[k], over: h.over[k], max: h.max,
			log: { e: h.log.e, c: h.log.c[k] } } }, log);
	});
	/* an overflow bin on one side only: the other's empty one beside it */
	var b = this.bins[0].length >= this.bins[1].length ? this.bins[0] : this.bins[1];
	this.bins = this.bins.map(function (s) {
		return s.length === b.length ? s : s.concat([{ lo: b[b.length - 1].lo,
			hi: b[b.length - 1].hi, c: 0, over: true }]);
	});
	this.edges = b;
	var xs = b.map(function (x, k) { return k; });
	this.data = [xs].concat(this.bins.map(function (s, k) {
		return s.map(function (x) { return self.n[k] ? 100 * x.c / self.n[k] : 0; });
	}));
	function edge(k) {
		return k >= b.length ? (b.length ? b[b.length - 1].hi : 0) : b[k].lo;
	}
	return {
		scales: {
			x: { time: false, range: function () { return [0, Math.max(1, b.length)]; } },
			y: { range: function (u, lo, hi) { return [0, Math.max(1, hi) * 1.1]; } },
		},
		/* base filled, new outlined over it: equal bars still show both */
		series: [{}].concat([0, 1].map(function (k) {
			return { label: SIDE_NAMES[k], fill: k ? undefined : SIDE_COLOURS[k] + '99',
				stroke: SIDE_COLOURS[k], width: k ? 2 : 0,
				paths: uPlot.paths.bars({ size: [0.92, Infinity], align: 1 }),
				points: { show: false } };
		})),
		axes: [
			{
				label: name + ' (ms)' + (log ? ', log bins' : ''), size: 42,
				splits: function (u) {
					return labelledEdges(b, log, Math.max(1, u.bbox.width / devicePixelRatio));
				},
				values: function (u, splits) {
					return splits.map(function (k) {
						var v = edge(k) / 1000, label = fixed(v, Math.abs(v) < 1 ? 4 : 3);
						return k === b.length - 1 && b[k] && b[k].over ? '≥' + label : label;
					});
				},
			},
			{ label: '% of its instances', size: axisSize,
				values: function (u, vals) { return vals.map(function (v) { return fixed(v, 2); }); } },
		],
	};
};

/* Both cumulative distributions on one x array (µs → ms), each side's
 * share null where the point is the other's, joined across. */
ABDistribution.prototype.cdfOptions = function (name) {
	var c = this.d.cdf, xs = [], ys = [[], []], i = 0, j = 0;
	while (i < c[0].v.length || j < c[1].v.length) {
		var a = i < c[0].v.length ? c[0].v[i] : Infinity, b = j < c[1].v.length ? c[1].v[j] : Infinity;
		if (a <= b) {
			xs.push(a / 1000);
			ys[0].push(100 * c[0].p[i++]);
			ys[1].push(null);
		} else {
			xs.push(b / 1000);
			ys[0].push(null);
			ys[1].push(100 * c[1].p[j++]);
		}
	}
	this.data = [xs, ys[0], ys[1]];
	return {
		scales: { x: { time: false }, y: { range: [0, 100] } },
		series: [{}].concat([0, 1].map(function (k) {
			/* base wide and light, new narrow over it: equal lines show both */
			return { label: SIDE_NAMES[k], stroke: k ? SIDE_COLOURS[k] : SIDE_COLOURS[k] + 'aa',
				width: k ? 1.5 : 5, spanGaps: true, paths: uPlot.paths.stepped({ align: 1 }),
				points: { show: false } };
		})),
		axes: [
			{ label: name + ' (ms)', size: 42 },
			{ label: '% at or below', size: axisSize },
		],
	};
};

/* A side's share of instances at or below v µs (its quantiles' steps). */
ABDistribution.prototype.shareAt = function (side, v) {
	var c = this.d.cdf[side], k = lowerBound(c.v, v + 1e-9) - 1;
	return k < 0 ? 0 : 100 * c.p[k];
};

ABDistribution.prototype.hover = function (u) {
	var x = u.cursor.left;
	if (x === null || x < 0) {
		hideTip();
		return;
	}
	var text, self = this, rect = u.over.getBoundingClientRect();
	if (this.how === 'cumulative') {
		var v = u.posToVal(x, 'x') * 1000;
		text = 'at or below ' + shown(v, 'ms') + [0, 1].map(function (k) {
			return '\n' + SIDE_NAMES[k] + ': ' + fixed(self.shareAt(k, v), 1) + ' %';
		}).join('');
	} else {
		var k = Math.floor(u.posToVal(x, 'x')), bin = this.edges[k];
		if (!bin) {
			hideTip();
			return;
		}
		text = (bin.over ? 'past the greater p99: ' : '') + shown(bin.lo, 'ms') + ' to ' +
			shown(bin.hi, 'ms') + [0, 1].map(function (s) {
				var c = self.bins[s][k].c;
				return '\n' + SIDE_NAMES[s] + ': ' + plural(c, self.d.what) + ' (' +
					fixed(self.n[s] ? 100 * c / self.n[s] : 0, 2) + ' %)';
			}).join('');
	}
	showTip(text, rect.left + x, rect.top + u.cursor.top);
};
/* Instances each side's bars count (all of them: a test's check). */
ABDistribution.prototype.counted = function () {
	return (this.bins || []).map(function (s) {
		return s.reduce(function (a, b) { return a + b.c; }, 0);
	});
};
ABDistribution.prototype.destroy = function () {
	this.u.destroy();
};
