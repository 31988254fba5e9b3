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
	var input = document.getElementById('search'), matches = searchCount(input);
	input.addEventListener('input', function () {
		var q = input.value.trim().toLowerCase();
		var n = filterNamed(document.querySelectorAll('section [data-name]'), q);
		matches.textContent = q ? n[0] + ' of ' + n[1] + ' shown' : '';
	});
}

function start() {
	var t0 = performance.now();
	setUpBar();
	SECTIONS.forEach(setUpSection);
	setUpSearch();
	drawFirstScreen(sections, function () { return false; });
	finishStart(api, t0);
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
	drawAll: function () { drawAllCards(sections); },
};
runStart(start);
