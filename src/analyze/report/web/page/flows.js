/*
 * flows.js - a path's instances through its nodes (SVG): lanes, a bar
 * while a node works on the message, an arrow while it travels.
 */
function instanceAt(data, position) {
	var inst = data.inst;
	if (!inst.k)
		return position < inst.s.length ? position : -1;
	if (!inst.index) {
		inst.index = {};
		inst.k.forEach(function (p, j) { inst.index[p] = j; });
	}
	var j = inst.index[position];
	return j === undefined ? -1 : j;
}

/* The flow's time, to draw every flow of a path on one scale (the
 * longest of the worst instances, or the instance's own if longer). */
function flowTotal(data, j) {
	var h = data.hops.length, total = 0;
	for (var k = 0; k < h; k++) {
		var d = data.inst.h[j * h + k];
		if (d === null)
			break;
		total += Math.max(0, d);
	}
	return total;
}
function drawFlows(card) {
	card.flowScale = 0;
	card.data.worst.forEach(function (w) {
		var j = instanceAt(card.data, w.pos);
		if (j >= 0)
			card.flowScale = Math.max(card.flowScale, flowTotal(card.data, j));
	});
	card.data.worst.forEach(function (w) {
		drawFlow(card, w.pos, w.name, false);
	});
}

/* The flow of the instance at `position` of the timeline, in a box named
 * `name` (the one named so before is replaced). */
function drawFlow(card, position, name, picked) {
	var box = card.el.querySelector('.flows');
	if (!box)
		return;
	var data = card.data, j = instanceAt(data, position);
	var old = box.querySelector('.flow[data-name="' + name + '"]');
	var el = document.createElement('div');
	el.className = 'flow' + (picked ? ' picked' : '');
	el.setAttribute('data-name', name);
	if (old)
		box.replaceChild(el, old);
	else if (picked)
		box.insertBefore(el, box.firstChild);
	else
		box.appendChild(el);
	var h5 = document.createElement('h5');
	el.appendChild(h5);
	if (j < 0) {
		h5.textContent = name + ': instance #' + position + ' is not in the page (thinned)';
		return;
	}
	var h = data.hops.length, hops = data.inst.h.slice(j * h, j * h + h);
	var e2e = data.m['end to end'], k = e2e.i ? e2e.i.indexOf(position) : position;
	var latency = k >= 0 && k < e2e.y.length ? shown(e2e.y[k], 'ms') : '';
	h5.textContent = name + ': instance #' + count(position) + ' (message #' +
		count(data.inst.m[j]) + ' of the first node), ' +
		'its callback at ' + seconds(data.inst.s[j] / 1e6) + (latency ? ', end to end ' +
		latency : '');
	var scale = Math.max(card.flowScale || 0, flowTotal(data, j));
	el.appendChild(flowSvg(data.nodes, data.hops, hops, box.clientWidth || 900, scale,
		splitOf(data, j)));
	if (picked)
		el.scrollIntoView({ block: 'nearest' });
}

var SVG = 'http://www.w3.org/2000/svg';
function svgNode(tag, attrs, text) {
	var e = document.createElementNS(SVG, tag);
	for (var a in attrs)
		e.setAttribute(a, attrs[a]);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

/* Lanes, one per node; a bar while a node works on the message, an arrow
 * while it travels (split where it waited: split.js); on the instance's
 * own time axis (ms from its start). */
function flowSvg(nodes, labels, hops, width, scale, split) {
	var left = 210, right = 16, laneH = 30, top = 6;
	var total = Math.max(scale, 1);
	var height = top + laneH * nodes.length + 28, plot = Math.max(100, width - left - right);
	var svg = svgNode('svg', { viewBox: '0 0 ' + width + ' ' + height, height: height });
	var x = function (us) { return left + plot * us / total; };
	nodes.forEach(function (n, i) {
		var y = top + laneH * i + laneH / 2;
		svg.appendChild(svgNode('line', { x1: left, x2: left + plot, y1: y, y2: y, class: 'lane' }));
		var t = svgNode('text', { x: 4, y: y + 4, class: 'node-name' },
			n.length > 30 ? n.slice(0, 12) + '…' + n.slice(-17) : n);
		t.appendChild(svgNode('title', {}, n));
		svg.appendChild(t);
	});
	var t = 0;
	for (var k = 0; k < hops.length; k++) {
		var d = hops[k];
		if (d === null)
			break;
		d = Math.max(0, d);
		var lane = Math.ceil(k / 2), y = top + laneH * lane + laneH / 2, colour = PALETTE[k % PALETTE.length];
		var shape;
		if (k % 2 === 0) {
			shape = svgNode('rect', { x: x(t), y: y - 7, width: Math.max(1.5, x(t + d) - x(t)),
				height: 14, rx: 2, fill: colour, class: 'pt' });
		} else {
			var y0 = y - laneH + 7, y1 = y - 7;
			if (drawTopicSplit(svg, x, k, t, d, split, y0, y1, colour,
				labels[k] + ' (' + shown(d, 'ms') + ')')) {
				t += d;
				continue;
			}
			shape = svgNode('line', { x1: x(t), y1: y0, x2: x(t + d), y2: y1, stroke: colour,
				'stroke-width': 2, class: 'pt' });
		}
		shape.appendChild(svgNode('title', {}, labels[k] + ': ' + shown(d, 'ms')));
		svg.appendChild(shape);
		t += d;
	}
	/* the axis: round steps of ms */
	var axisY = top + laneH * nodes.length + 4;
	var step = niceStep(total / 1000 / 8);
	for (var v = 0; v <= total / 1000 + 1e-9; v += step) {
		var px = x(v * 1000);
		svg.appendChild(svgNode('line', { x1: px, x2: px, y1: axisY, y2: axisY + 4, stroke: '#8c959f' }));
		svg.appendChild(svgNode('text', { x: px, y: axisY + 16, 'text-anchor': 'middle' },
			fixed(v, 4)));
	}
	svg.appendChild(svgNode('text', { x: 4, y: axisY + 16 }, 'ms from its start'));
	return svg;
}
function niceStep(raw) {
	var p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
	var m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}
