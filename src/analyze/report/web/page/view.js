/*
 * view.js - the one time view every chart on the time axis shows (seconds
 * since the trace began), and what moves it: drags, ctrl+wheel, shift+wheel,
 * double-clicks, the bar's buttons.
 */
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
