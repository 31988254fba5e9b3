/*
 * page.js - the search box, the page's start, and window.caretReport (what
 * tests read). Last of the page's scripts: it starts the page.
 */
function setUpSearch() {
	var input = document.getElementById('search');
	var matches = document.createElement('span');
	matches.id = 'matches';
	input.parentNode.insertBefore(matches, input.nextSibling);
	function apply() {
		var q = input.value.trim().toLowerCase(), shownCards = 0, all = 0;
		['paths', 'callbacks', 'topics', 'services', 'actions'].forEach(function (id) {
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

/* Drawn before the load event, so that the page is whole when it fires
 * (a screenshot, a print): every card when there are at most
 * CARDS_AT_LOAD; on a larger system the paths' cards with their flows and
 * every card on or near the first screen, the others when they come near
 * it (the observer, whose calls come after the load event). */
var CARDS_AT_LOAD = 80;
function drawFirstScreen() {
	var bottom = window.innerHeight + 600, total = 0;
	Object.keys(sections).forEach(function (id) { total += sections[id].cards.length; });
	Object.keys(sections).forEach(function (id) {
		sections[id].cards.forEach(function (c) {
			if (!observer || total <= CARDS_AT_LOAD || id === 'paths' ||
			    c.el.getBoundingClientRect().top < bottom)
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
	['callbacks', 'topics', 'services', 'actions', 'paths'].forEach(setUpSection);
	var sched = document.querySelector('.sched[data-chart]'), schedChart = null;
	if (sched)
		schedChart = new Sched(sched, CHARTS[sched.getAttribute('data-chart')]);
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
