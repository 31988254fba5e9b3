/*
 * ab_page.js - the A/B page (caret report --baseline): a card per object
 * compared, each with both timelines in one chart and both distributions
 * overlaid, drawn when it comes near the screen; the sections' switch of
 * distribution; the search; window.caretReport (what tests read). Last of
 * the A/B page's scripts: it starts the page.
 */
var SECTIONS = ['paths', 'callbacks', 'topics', 'nodes'];
var sections = {}; /* section id -> { how, cards[] } */
var observer = 'IntersectionObserver' in window ? new IntersectionObserver(function (entries) {
	entries.forEach(function (e) {
		if (e.isIntersecting && !e.target.caretCard.drawn)
			e.target.caretCard.draw();
	});
}, { rootMargin: '600px 0px' }) : null;

function ABCard(el, section) {
	this.el = el;
	this.section = section;
	this.data = CHARTS[el.getAttribute('data-chart')];
	this.drawn = false;
	this.charts = [];
	el.caretCard = this;
	if (observer)
		observer.observe(el);
}
ABCard.prototype.clear = function () {
	this.charts.forEach(function (c) { c.destroy(); });
	this.charts = [];
	this.el.querySelector('.tl').textContent = '';
	this.el.querySelector('.hist').textContent = '';
};
ABCard.prototype.draw = function () {
	if (this.el.classList.contains('hidden'))
		return;
	var d = this.data, how = sections[this.section].how;
	var tl = this.el.querySelector('.tl'), hist = this.el.querySelector('.hist');
	this.clear();
	this.drawn = true;
	var title = document.createElement('p');
	title.className = 'chart-title';
	title.appendChild(legend(d));
	tl.appendChild(title);
	this.charts.push(new ABTimeline(tl, d.sides, 'latency', d.what));
	var ht = document.createElement('p');
	ht.className = 'chart-title';
	ht.textContent = how === 'cumulative' ? 'cumulative distribution' :
		how === 'histogram' ? 'histogram, % of each side, the last bin past the greater p99' :
		'histogram, % of each side, logarithmic bins';
	hist.appendChild(ht);
	this.charts.push(new ABDistribution(hist, d, 'latency', how));
};
ABCard.prototype.redraw = function () {
	if (this.drawn)
		this.draw();
};

/* "■ base: 1,234 runs, p50 1.2 ms, p99 3.4 ms  ■ new: ..." */
function legend(d) {
	var span = document.createElement('span');
	d.sides.forEach(function (s, k) {
		var i = document.createElement('i');
		i.className = 'side';
		i.style.background = SIDE_COLOURS[k];
		span.appendChild(i);
		var b = document.createElement('b');
		b.textContent = SIDE_NAMES[k];
		span.appendChild(b);
		span.appendChild(document.createTextNode(': ' + plural(s.n, d.what) + (s.n ? ', p50 ' +
			shown(s.s.p50, 'ms') + ', p99 ' + shown(s.s.p99, 'ms') + ', max ' +
			shown(s.s.max, 'ms') : '') + '  '));
	});
	return span;
}

function distributionSwitch(container, section) {
	var st = sections[section];
	container.classList.add('switch');
	var label = document.createElement('span');
	label.className = 'label';
	label.textContent = 'distribution';
	container.appendChild(label);
	var buttons = DISTRIBUTIONS.map(function (how) {
		var b = document.createElement('button');
		b.type = 'button';
		b.textContent = how;
		b.className = how === st.how ? 'on' : '';
		b.addEventListener('click', function () {
			buttons.forEach(function (x) { x.className = x === b ? 'on' : ''; });
			st.how = how;
			st.cards.forEach(function (c) { c.redraw(); });
		});
		container.appendChild(b);
		return b;
	});
}

function setUpSection(id) {
	var section = document.getElementById(id);
	if (!section)
		return;
	var st = sections[id] = { how: DISTRIBUTIONS[0], cards: [] };
	section.querySelectorAll('.card[data-chart]').forEach(function (el) {
		st.cards.push(new ABCard(el, id));
	});
	var sw = section.querySelector('.dist-switch');
	if (sw && st.cards.length)
		distributionSwitch(sw, id);
}

function setUpSearch() {
	var input = document.getElementById('search');
	var matches = document.createElement('span');
	matches.id = 'matches';
	input.parentNode.insertBefore(matches, input.nextSibling);
	input.addEventListener('input', function () {
		var q = input.value.trim().toLowerCase(), shownCards = 0, all = 0;
		document.querySelectorAll('section [data-name]').forEach(function (el) {
			var hit = !q || el.getAttribute('data-name').toLowerCase().indexOf(q) >= 0;
			el.classList.toggle('hidden', !hit);
			if (el.classList.contains('card')) {
				all++;
				shownCards += hit;
				if (hit && el.caretCard && !el.caretCard.drawn && !observer)
					el.caretCard.draw();
			}
		});
		matches.textContent = q ? shownCards + ' of ' + all + ' shown' : '';
	});
}

/* Every card when there are at most CARDS_AT_LOAD, else those on or near
 * the first screen (the others as they come near it), before the load
 * event: a screenshot then shows the page whole. */
var CARDS_AT_LOAD = 80;
function drawFirstScreen() {
	var bottom = window.innerHeight + 600, total = 0;
	SECTIONS.forEach(function (id) { total += sections[id] ? sections[id].cards.length : 0; });
	Object.keys(sections).forEach(function (id) {
		sections[id].cards.forEach(function (c) {
			if (!observer || total <= CARDS_AT_LOAD || c.el.getBoundingClientRect().top < bottom)
				c.draw();
		});
	});
}

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
	SECTIONS.forEach(setUpSection);
	setUpSearch();
	document.getElementById('view-range').textContent = '0 – ' + fixed(DURATION, 6) + ' s';
	drawFirstScreen();
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

/* What tests read (tests/browser/report_ab_check.mjs). */
var api = window.caretReport = {
	ready: false,
	readyMs: 0,
	errors: errors,
	view: view,
	setView: setView,
	duration: DURATION,
	sections: sections,
	timeAxes: function () {
		return linked.map(function (c) {
			var x = c.u.scales.x;
			return { kind: 'timeline', min: x.min, max: x.max };
		});
	},
	/* a drawn card's charts: each side's instances in the timeline's data
	 * (at the whole view, before the page's thinning: the points the page
	 * carries) and in the distribution's bars */
	chartsOf: function (el) {
		var c = el.caretCard;
		if (!c || !c.drawn)
			return null;
		var t = c.charts[0], h = c.charts[1];
		return {
			series: t.u.series.length - 1,
			points: t.sides.map(function (s) { return s.X.length; }),
			drawn: [1, 2].map(function (k) {
				return t.u.data[k].filter(function (y) { return y !== null; }).length;
			}),
			barSeries: h.u.series.length - 1,
			counted: h.counted(),
			how: h.how,
		};
	},
	/* where a side's greatest value is drawn on a card's timeline */
	pointOf: function (el, side) {
		var c = el.caretCard;
		return c && c.drawn ? c.charts[0].greatest(side || 0) : null;
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
