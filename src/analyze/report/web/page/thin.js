/*
 * thin.js - the points drawn of a series: in each pixel column of the view
 * its least and greatest value, so no outlier disappears at any zoom.
 */
function lowerBound(xs, v) {
	var lo = 0, hi = xs.length;
	while (lo < hi) {
		var mid = (lo + hi) >>> 1;
		if (xs[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The indexes of the points of [min, max] kept to draw px columns: in
 * each column the least and the greatest value, in time order. */
function thin(xs, ys, min, max, px) {
	var from = lowerBound(xs, min), to = lowerBound(xs, max + (max - min) * 1e-9);
	var keep = [];
	if (to - from <= 2 * px) {
		for (var i = from; i < to; i++)
			keep.push(i);
		return keep;
	}
	var scale = px / (max - min), column = -1, low = -1, high = -1;
	for (var k = from; k <= to; k++) {
		var c = k < to ? Math.min(px - 1, Math.floor((xs[k] - min) * scale)) : -2;
		if (c !== column && low >= 0) {
			keep.push(Math.min(low, high));
			if (low !== high)
				keep.push(Math.max(low, high));
		}
		if (k === to)
			break;
		if (c !== column) {
			column = c;
			low = high = k;
		}
		if (ys[k] < ys[low])
			low = k;
		if (ys[k] > ys[high])
			high = k;
	}
	return keep;
}

/* ---- a series' arrays, made once ---------------------------------------- */

function prepare(s) {
	if (s.X)
		return s;
	var n = s.x.length, unit = s.unit === 'Hz' ? 1 : 1000;
	s.X = new Float64Array(n);
	s.Y = new Float64Array(n);
	for (var i = 0; i < n; i++) {
		s.X[i] = s.x[i] / 1e6;
		s.Y[i] = s.y[i] / unit;
	}
	return s;
}
function unitLabel(s) {
	return s.unit === 'Hz' ? 'Hz' : 'ms';
}
