/*
 * deadline.js - a requirement's deadline on a card's charts: a dashed
 * line across the timeline with the instances over it in red, a dashed
 * marker on the histogram with the bins past it in red, and the
 * instances a snapshot of caret live was written for ringed.
 */
var OVER = '#d62728';

/* The marks of a card's metric: its deadline (ms) and misses, and the
 * snapshot's instances; null when it has neither. */
function cardMarks(data, metric) {
	var dl = data.dl && data.dl.m === metric ? data.dl : null;
	var snap = metric === 'end to end' && data.snap ? data.snap : [];
	if (!dl && !snap.length)
		return null;
	return { dl: dl ? dl.v / 1000 : Infinity, misses: dl ? dl.n : 0, hasDeadline: !!dl,
		snap: snap.map(function (p) { return { x: p.x / 1e6, y: p.y / 1000 }; }) };
}

/* The timeline's series of the points over the deadline, drawn red. */
function overSeries() {
	return { label: 'over the deadline', stroke: OVER, width: 0,
		paths: function () { return null; },
		points: { show: true, space: 0, size: 6, fill: OVER, stroke: OVER } };
}
function overDeadline(ys, dl) {
	var out = new Array(ys.length);
	for (var i = 0; i < ys.length; i++)
		out[i] = ys[i] > dl ? ys[i] : null;
	return out;
}

function dashed(ctx, colour, width) {
	ctx.strokeStyle = colour;
	ctx.lineWidth = width * devicePixelRatio;
	ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
}

/* The deadline's line and the snapshot's rings on a timeline. */
function drawMarks(u, marks) {
	if (!marks)
		return;
	var ctx = u.ctx, box = u.bbox;
	ctx.save();
	if (marks.hasDeadline) {
		var y = u.valToPos(marks.dl, 'y', true);
		dashed(ctx, OVER, 1.5);
		ctx.beginPath();
		ctx.moveTo(box.left, y);
		ctx.lineTo(box.left + box.width, y);
		ctx.stroke();
		ctx.setLineDash([]);
		ctx.fillStyle = OVER;
		ctx.font = (11 * devicePixelRatio) + 'px sans-serif';
		ctx.textAlign = 'right'; /* at the line's right end, clear of the axis */
		ctx.textBaseline = 'bottom';
		ctx.fillText('deadline ' + fixed(marks.dl, 3) + ' ms · ' + count(marks.misses) +
			(marks.misses === 1 ? ' miss' : ' misses'), box.left + box.width - 4 * devicePixelRatio,
			y - 3 * devicePixelRatio);
	}
	/* each instance ringed; the label once, beside the one of most latency */
	var top = null;
	marks.snap.forEach(function (p) {
		if (p.x < u.scales.x.min || p.x > u.scales.x.max)
			return;
		var x = u.valToPos(p.x, 'x', true), y = u.valToPos(p.y, 'y', true);
		ctx.setLineDash([]);
		ctx.strokeStyle = '#000';
		ctx.lineWidth = 2.5 * devicePixelRatio;
		ctx.beginPath();
		ctx.arc(x, y, 9 * devicePixelRatio, 0, 2 * Math.PI);
		ctx.stroke();
		if (!top || y < top.y)
			top = { x: x, y: y };
	});
	if (top) {
		ctx.fillStyle = '#000';
		ctx.font = 'bold ' + (11 * devicePixelRatio) + 'px sans-serif';
		ctx.textAlign = 'left';
		ctx.textBaseline = 'middle';
		ctx.fillText(marks.snap.length === 1 ? "the snapshot's miss" : "the snapshot's " +
			marks.snap.length + ' misses', top.x + 13 * devicePixelRatio, top.y);
	}
	ctx.restore();
}

/* The deadline's place among a histogram's bins (b: bins(), in the
 * series' unit, µs), as a dashed vertical line. */
function drawDeadlineBin(u, b, marks) {
	if (!marks || !marks.hasDeadline || !b.length)
		return;
	var v = marks.dl * 1000, at = b.length;
	for (var k = 0; k < b.length; k++)
		if (v < b[k].hi) {
			at = k + Math.max(0, (v - b[k].lo) / (b[k].hi - b[k].lo));
			break;
		}
	var ctx = u.ctx, box = u.bbox, x = u.valToPos(at, 'x', true);
	ctx.save();
	dashed(ctx, OVER, 2);
	ctx.beginPath();
	ctx.moveTo(x, box.top);
	ctx.lineTo(x, box.top + box.height);
	ctx.stroke();
	ctx.restore();
}
