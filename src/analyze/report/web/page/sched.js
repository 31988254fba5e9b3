/*
 * sched.js - the callbacks' scheduling: a lane per executor thread, each
 * run a bar, the runs of a chosen path standing out.
 */
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
	if (d.paths.length && d.paths[0].runs.length) { /* a path with none would fade all */
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
			/* whole pixels: a run thinner than one is drawn in its colour, not
			 * smeared pale over two */
			var x = Math.floor(bar.x0), w = Math.max(px, Math.ceil(bar.x1) - x);
			ctx.globalAlpha = self.mark && !bar.marked ? 0.35 : 1;
			ctx.fillStyle = bar.colour;
			ctx.fillRect(x, y + pad, w, laneH - 2 * pad - (bar.marked ? foot : 0));
			if (bar.marked) { /* a dark foot under the run: seen however thin it is */
				ctx.globalAlpha = 1;
				ctx.fillStyle = '#1f2328';
				ctx.fillRect(x, y + laneH - pad - foot, w, foot);
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
