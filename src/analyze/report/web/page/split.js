/*
 * split.js - where a message waited, in its flow (flows.js): a topic hop
 * split in three (the analyzer's sec_split.c) is drawn as the publish to
 * the DDS write on the publisher's lane, the DDS's arrow down to the
 * subscriber, and the wait for the executor dashed on the subscriber's
 * lane up to its callback.
 */
var SPLIT_PARTS = ['publish→DDS write', 'DDS write→reception',
	"reception→callback (the executor's wait)"];

/* The instance's parts, topic by topic (3 a topic, null when not split),
 * or null when the page has none. */
function splitOf(data, j) {
	var sp = data.inst.sp;
	if (!sp)
		return null;
	var per = (data.hops.length - 1) / 2 * 3;
	return sp.slice(j * per, j * per + per);
}

/* Topic hop k from t for d (µs) in its three parts, when split: true when
 * drawn. y0: under the publisher's bar, y1: over the subscriber's. */
function drawTopicSplit(svg, x, k, t, d, split, y0, y1, colour, label) {
	var at = (k - 1) / 2 * 3;
	if (!split || split[at] === null)
		return false;
	var a = Math.max(0, split[at]), b = Math.max(0, split[at + 1]);
	var c = Math.max(0, split[at + 2]), sum = a + b + c || 1;
	/* the parts fill the hop as drawn */
	var t1 = t + d * a / sum, t2 = t1 + d * b / sum;
	var lines = [[t, y0, t1, y0], [t1, y0, t2, y1], [t2, y1, t + d, y1]];
	lines.forEach(function (l, p) {
		var attrs = { x1: x(l[0]), y1: l[1], x2: x(l[2]), y2: l[3], stroke: colour,
			'stroke-width': p === 2 ? 3 : 2, class: 'pt split-part p' + p, 'data-part': p,
			'data-us': split[at + p] };
		if (p === 2)
			attrs['stroke-dasharray'] = '4 2';
		var line = svgNode('line', attrs);
		line.appendChild(svgNode('title', {}, label + ', ' + SPLIT_PARTS[p] + ': ' +
			shown(split[at + p], 'ms')));
		svg.appendChild(line);
	});
	return true;
}
