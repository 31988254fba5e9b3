/*
 * page.js - the search box, the page's start, and window.caretReport (what
 * tests read). Last of the page's scripts: it starts the page.
 */
function setUpSearch() {
	var input = document.getElementById('search'), matches = searchCount(input);
	function apply() {
		var q = input.value.trim().toLowerCase(), elements = [];
		['paths', 'callbacks', 'topics', 'services', 'actions'].forEach(function (id) {
			var section = document.getElementById(id);
			if (section)
				section.querySelectorAll('[data-name]').forEach(function (el) { elements.push(el); });
		});
		var n = filterNamed(elements, q);
		matches.textContent = q ? n[0] + ' of ' + n[1] + ' shown' : '';
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
	setUpBar();
	['callbacks', 'topics', 'services', 'actions', 'paths'].forEach(setUpSection);
	var sched = document.querySelector('.sched[data-chart]'), schedChart = null;
	if (sched)
		schedChart = new Sched(sched, CHARTS[sched.getAttribute('data-chart')]);
	setUpSearch();
	/* the paths' cards with their flows always */
	drawFirstScreen(sections, function (id) { return id === 'paths'; });
	finishStart(api, t0);
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
	drawAll: function () { drawAllCards(sections); },
};
runStart(start);
