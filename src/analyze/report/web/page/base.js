/*
 * base.js - what every part of the page uses: the data the analyzer wrote
 * (#caret-data), the colours, how numbers are shown, the tooltip.
 */

var DATA = JSON.parse(document.getElementById('caret-data').textContent);
var CHARTS = DATA.charts;
var DURATION = Math.max(DATA.dur / 1e6, 1e-6); /* seconds */
var PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948',
	'#b07aa1', '#ff9da7', '#9c755f', '#17becf', '#8cd17d', '#d37295'];
var HEIGHT = 230;
var errors = [];

/* One colour per callback (or topic, path) wherever it is drawn. */
var colours = {}, coloursUsed = 0;
function colourFor(name) {
	if (!(name in colours))
		colours[name] = PALETTE[coloursUsed++ % PALETTE.length];
	return colours[name];
}

/* ---- numbers ------------------------------------------------------------ */

function fixed(v, digits) {
	var s = v.toFixed(digits);
	return s.indexOf('.') < 0 ? s : s.replace(/0+$/, '').replace(/\.$/, '');
}
/* a value in the series' unit as shown: ms (given in µs) or Hz */
function shown(v, unit) {
	if (unit === 'Hz')
		return fixed(v, 0) + ' Hz';
	var ms = v / 1000;
	return fixed(ms, Math.abs(ms) < 1 ? 4 : Math.abs(ms) < 100 ? 3 : 1) + ' ms';
}
function seconds(s) {
	return fixed(s, 6) + ' s';
}
function count(n) {
	return Math.round(n).toLocaleString('en-US');
}
function plural(n, word) {
	return count(n) + ' ' + word + (n === 1 ? '' : 's');
}

/* ---- the tooltip ----------------------------------------------------- */

var tip = document.createElement('div');
tip.id = 'tip';
document.body.appendChild(tip);
function showTip(text, x, y) {
	tip.textContent = text;
	tip.style.display = 'block';
	var w = tip.offsetWidth, h = tip.offsetHeight;
	tip.style.left = Math.min(x + 14, window.innerWidth - w - 8) + 'px';
	tip.style.top = (y + 14 + h > window.innerHeight ? y - h - 10 : y + 14) + 'px';
}
function hideTip() {
	tip.style.display = 'none';
}
