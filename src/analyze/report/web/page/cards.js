/*
 * cards.js - a card per callback, topic or path showing one metric at a
 * time (the section's switch), drawn when it comes near the screen.
 */
var sections = {}; /* section id -> { metric, log, cards[] } */
var observer = 'IntersectionObserver' in window ? new IntersectionObserver(function (entries) {
	entries.forEach(function (e) {
		if (e.isIntersecting && !e.target.caretCard.drawn)
			e.target.caretCard.draw();
	});
}, { rootMargin: '600px 0px' }) : null;

function Card(el, section) {
	this.el = el;
	this.section = section;
	this.data = CHARTS[el.getAttribute('data-chart')];
	this.colour = colourFor(this.data.title);
	this.drawn = false;
	this.charts = [];
	el.caretCard = this;
	if (observer)
		observer.observe(el);
}
Card.prototype.metricNames = function () {
	return Object.keys(this.data.m);
};
Card.prototype.clear = function () {
	this.charts.forEach(function (c) { c.destroy(); });
	this.charts = [];
	var tl = this.el.querySelector('.tl'), hist = this.el.querySelector('.hist');
	tl.textContent = '';
	hist.textContent = '';
};
Card.prototype.draw = function () {
	if (this.el.classList.contains('hidden'))
		return;
	var self = this, st = sections[this.section];
	this.clear();
	this.drawn = true;
	var name = st.metric, s = this.data.m[name];
	var tl = this.el.querySelector('.tl'), hist = this.el.querySelector('.hist');
	if (!s || !s.n) {
		tl.innerHTML = '<p class="empty">No ' + name + (s ? ': no instance in the trace.' :
			' for this one.') + '</p>';
		return;
	}
	var stats = s.s ? 'n ' + count(s.n) + ' · p50 ' + shown(s.s.p50, s.unit) + ' · p99 ' +
		shown(s.s.p99, s.unit) + ' · max ' + shown(s.s.max, s.unit) : '';
	var title = document.createElement('p');
	title.className = 'chart-title';
	title.textContent = name + ' — ' + stats;
	tl.appendChild(title);
	var pick = this.data.inst && name === 'end to end' ? function (i) { self.pick(i); } : null;
	var marks = cardMarks(this.data, name);
	if (marks && marks.hasDeadline)
		title.textContent += ' · deadline ' + shown(marks.dl * 1000, s.unit) + ', ' +
			plural(marks.misses, 'instance') + ' over it';
	this.charts.push(new Timeline(tl, s, name, this.colour, pick, marks));
	var ht = document.createElement('p');
	ht.className = 'chart-title';
	ht.textContent = st.log ? 'histogram, logarithmic bins' : 'histogram, the last bin past p99';
	hist.appendChild(ht);
	this.charts.push(new Histogram(hist, s, name, this.colour, st.log, marks));
	if (this.data.inst && !this.flowsDrawn) {
		this.flowsDrawn = true;
		drawFlows(this);
	}
};
Card.prototype.redraw = function () {
	if (this.drawn)
		this.draw();
};
Card.prototype.pick = function (position) {
	drawFlow(this, position, 'clicked', true);
};

function Switch(container, section, names) {
	var st = sections[section];
	container.classList.add('switch');
	var label = document.createElement('span');
	label.className = 'label';
	label.textContent = 'show';
	container.appendChild(label);
	function group(values, current, set) {
		var buttons = values.map(function (v) {
			var b = document.createElement('button');
			b.type = 'button';
			b.textContent = v;
			b.className = v === current ? 'on' : '';
			b.addEventListener('click', function () {
				buttons.forEach(function (x) { x.className = x === b ? 'on' : ''; });
				set(v);
				st.cards.forEach(function (c) { c.redraw(); });
			});
			container.appendChild(b);
			return b;
		});
	}
	group(names, st.metric, function (v) { st.metric = v; });
	var bl = document.createElement('span');
	bl.className = 'label';
	bl.textContent = ' histogram bins';
	container.appendChild(bl);
	group(['linear, overflow past p99', 'logarithmic'], 'linear, overflow past p99',
		function (v) { st.log = v === 'logarithmic'; });
}

function setUpSection(id) {
	var section = document.getElementById(id);
	if (!section)
		return;
	var st = sections[id] = { metric: null, log: false, cards: [] };
	var names = [];
	section.querySelectorAll('.card[data-chart]').forEach(function (el) {
		var c = new Card(el, id);
		st.cards.push(c);
		c.metricNames().forEach(function (n) {
			if (names.indexOf(n) < 0)
				names.push(n);
		});
	});
	st.metric = names[0];
	var sw = section.querySelector('.metric-switch');
	if (sw && names.length)
		Switch(sw, id, names);
}
