/*
 * shell.js - what the single page (page.js) and the A/B page (ab_page.js)
 * start the same way: the bar's buttons, the search's filtering of named
 * rows and cards, the cards drawn before the load event, the resize, the
 * ready flag tests wait for. Each page keeps its own sections and cards;
 * `observer` is the page's IntersectionObserver (null without one).
 */

/* The count of cards the search leaves shown, beside its box. */
function searchCount(input) {
	var matches = document.createElement('span');
	matches.id = 'matches';
	input.parentNode.insertBefore(matches, input.nextSibling);
	return matches;
}

/* Hides the named elements (rows, cards) whose name lacks q; a card shown
 * is drawn now when no observer will. Returns [cards shown, cards]. */
function filterNamed(elements, q) {
	var shownCards = 0, all = 0;
	elements.forEach(function (el) {
		var hit = !q || el.getAttribute('data-name').toLowerCase().indexOf(q) >= 0;
		el.classList.toggle('hidden', !hit);
		if (el.classList.contains('card')) {
			all++;
			shownCards += hit;
			if (hit && el.caretCard && !el.caretCard.drawn && !observer)
				el.caretCard.draw();
		}
	});
	return [shownCards, all];
}

/* Drawn before the load event, so that the page is whole when it fires
 * (a screenshot, a print): every card when there are at most
 * CARDS_AT_LOAD, else those for which always(section id) holds and those
 * on or near the first screen, the others when they come near it (the
 * observer, whose calls come after the load event). */
var CARDS_AT_LOAD = 80;
function drawFirstScreen(sections, always) {
	var bottom = window.innerHeight + 600, total = 0;
	Object.keys(sections).forEach(function (id) { total += sections[id].cards.length; });
	Object.keys(sections).forEach(function (id) {
		sections[id].cards.forEach(function (c) {
			if (!observer || total <= CARDS_AT_LOAD || always(id) ||
			    c.el.getBoundingClientRect().top < bottom)
				c.draw();
		});
	});
}

/* The table of contents without the sections the page lacks, and the
 * bar's zoom and pan buttons on the shared time view. */
function setUpBar() {
	document.querySelectorAll('nav .toc a').forEach(function (a) {
		if (!document.getElementById(a.getAttribute('href').slice(1)))
			a.remove();
	});
	var click = function (id, f) { document.getElementById(id).addEventListener('click', f); };
	click('zoom-in', function () { zoom(0.5); });
	click('zoom-out', function () { zoom(2); });
	click('pan-left', function () { pan(-0.25); });
	click('pan-right', function () { pan(0.25); });
	click('zoom-reset', function () { setView(0, DURATION); });
	document.getElementById('view-range').textContent = '0 – ' + fixed(DURATION, 6) + ' s';
}

/* The time charts resized with the window's width (not its height: a
 * phone's bar showing and hiding would redraw them all), and api.ready
 * set once the first frame is drawn. */
function finishStart(api, t0) {
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

/* Every card drawn (tests, printing). */
function drawAllCards(sections) {
	Object.keys(sections).forEach(function (id) {
		sections[id].cards.forEach(function (c) { if (!c.drawn) c.draw(); });
	});
}

/* start() run, an error kept where tests read it. */
function runStart(start) {
	try {
		start();
	} catch (e) {
		errors.push(String(e && e.stack || e));
		throw e;
	}
}
