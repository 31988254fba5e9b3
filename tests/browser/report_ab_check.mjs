#!/usr/bin/env node
/*
 * report_ab_check.mjs - opens the A/B page of `caret report --baseline` in
 * headless Chromium (Debian's, driven by puppeteer-core) as a person would,
 * and checks it: no console message and no request leaves the page; it
 * fits 1280 px; every card is drawn at its load event; the change table has slower before faster (the expected
 * slower object first among them, with --expect-slower); every card's
 * timeline and distribution have two series, base and new, each with its
 * side's instances (the timeline's points, the bars' counts) and each
 * drawn in its own colour; a link of the change table brings its card to
 * the screen; a drag across a timeline zooms every timeline to the same
 * range and a double-click shows the whole again; hovering each side's
 * greatest point and the tallest bar shows their values; the cumulative
 * switch redraws the section's cards; the search keeps what matches.
 *
 * usage: node report_ab_check.mjs AB.html [--expect-slower PREFIX]
 *        [--screenshot FILE.png] [--timing]
 * Prints one line per check ("ok ..." or "FAIL ..."), then (--timing) one
 * JSON line: the page's bytes and how long it took to be ready.
 * Exit 1 when a check fails.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { launch } from './chromium.mjs';

const args = process.argv.slice(2);
const file = resolve(args[0] || '');
const option = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};
const url = 'file://' + file;
let failures = 0;
const check = (ok, what) => {
	console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
	if (!ok)
		failures++;
};
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

const chromium = await launch();
try {
	const page = await chromium.browser.newPage();
	const messages = [], requests = [];
	page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
	page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
	await page.setRequestInterception(true);
	page.on('request', (r) => {
		if (r.url() === url)
			return r.continue();
		requests.push(r.url());
		return r.abort();
	});
	await page.setViewport({ width: 1280, height: 900 });
	await page.goto(url, { waitUntil: 'load' });
	await page.waitForFunction('window.caretReport && window.caretReport.ready', { timeout: 20000 });
	const first = await page.evaluate(() => ({
		width: document.documentElement.scrollWidth,
		duration: window.caretReport.duration,
		readyMs: window.caretReport.readyMs,
	}));
	check(first.width <= 1280, `the page fits 1280 px (${first.width} px wide)`);
	/* whole at its load event: every card drawn (up to 80; past that,
	 * those near the first screen) */
	const atLoad = await page.evaluate(() => {
		const cards = Array.from(document.querySelectorAll('.card[data-chart]'));
		return { cards: cards.length, drawn: cards.filter((el) => el.caretCard &&
			el.caretCard.drawn && el.querySelector('.tl canvas') && el.querySelector('.hist canvas')).length };
	});
	check(atLoad.cards > 80 ? atLoad.drawn > 0 : atLoad.drawn === atLoad.cards,
		`${atLoad.drawn} of ${atLoad.cards} cards drawn at the load event`);

	/* the change table: slower, then faster */
	const changes = await page.evaluate(() => Array.from(
		document.querySelectorAll('#changes tr[data-verdict]')).map((r) => ({
		name: r.getAttribute('data-name'), verdict: r.getAttribute('data-verdict'),
		link: r.querySelector('a') ? r.querySelector('a').getAttribute('href') : null })));
	const order = changes.map((c) => c.verdict);
	const none = await page.evaluate(() => /No significant change/.test(
		document.getElementById('changes').textContent));
	check(order.length ? order.join() === order.slice().sort((a, b) =>
		(a !== 'slower') - (b !== 'slower')).join() && !none : none,
	`the change table: ${order.length ? JSON.stringify(order) + ', slower first' : 'no significant change, said'}`);
	const expect = option('--expect-slower');
	if (expect)
		check(changes.some((c) => c.verdict === 'slower' && c.name.startsWith(expect)),
			`${expect} is among the slower changes`);

	/* every card: two series of each side's instances, both colours drawn */
	await page.evaluate(() => window.caretReport.drawAll());
	await pause(200);
	const cards = await page.evaluate(() => {
		/* the pixels of a canvas near each colour (rgb), read once (a
		 * fill's own colour, whatever its opacity over the transparent canvas) */
		function near(canvas, colours) {
			const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
			return colours.map((rgb) => {
				let n = 0;
				for (let i = 0; i < d.length; i += 4)
					if (d[i + 3] > 100 && Math.abs(d[i] - rgb[0]) + Math.abs(d[i + 1] - rgb[1]) +
						Math.abs(d[i + 2] - rgb[2]) < 60)
						n++;
				return n;
			});
		}
		const colours = [[0x4e, 0x79, 0xa7], [0xe8, 0x73, 0x1a]];
		const data = JSON.parse(document.getElementById('caret-data').textContent).charts;
		return Array.from(document.querySelectorAll('.card[data-chart]')).map((el) => {
			const d = data[el.getAttribute('data-chart')];
			const c = window.caretReport.chartsOf(el);
			const tl = el.querySelector('.tl canvas'), hist = el.querySelector('.hist canvas');
			return { name: el.getAttribute('data-name'), n: d.sides.map((s) => s.n),
				points: d.sides.map((s) => s.x.length), charts: c,
				tlColours: tl ? near(tl, colours) : [0, 0],
				histColours: hist ? near(hist, colours) : [0, 0] };
		});
	});
	const wrong = cards.filter((c) => !c.charts || c.charts.series !== 2 || c.charts.barSeries !== 2 ||
		c.charts.points.join() !== c.points.join() || c.charts.counted.join() !== c.n.join() ||
		c.charts.drawn.some((k) => k === 0) || c.tlColours.some((k) => k < 3) ||
		c.histColours.some((k) => k < 3));
	check(cards.length > 0 && wrong.length === 0, `every one of ${cards.length} cards draws base and ` +
		`new, each with its instances${wrong.length ? ': wrong: ' + JSON.stringify(wrong.slice(0, 3)) : ''}`);
	if (cards.length)
		console.log(`  e.g. ${cards[0].name}: instances ${cards[0].n.join(' / ')}, timeline pixels ` +
			`${cards[0].tlColours.join(' / ')}, histogram pixels ${cards[0].histColours.join(' / ')}`);

	/* a link of the change table brings its card to the screen */
	const link = changes.find((c) => c.link);
	if (link) {
		await page.click(`#changes a[href="${link.link}"]`);
		await pause(200);
		const at = await page.evaluate((id) => ({ top: document.querySelector(id)
			.getBoundingClientRect().top, bar: document.getElementById('bar').getBoundingClientRect().bottom,
		height: window.innerHeight, hash: location.hash }), link.link);
		check(at.hash === link.link && at.top >= at.bar - 1 && at.top < at.height - 100,
			`the link to ${link.name} brought its card to the screen below the bar (${at.hash}, ` +
			`top ${Math.round(at.top)} px, the bar's bottom ${Math.round(at.bar)} px)`);
	}

	/* a drag across a timeline zooms every timeline */
	await page.evaluate(() => document.querySelector('.card[data-chart] .tl')
		.scrollIntoView({ block: 'center' }));
	await pause(150);
	const over = await page.evaluate(() => {
		const r = document.querySelector('.card[data-chart] .tl .u-over').getBoundingClientRect();
		return { x: r.left, y: r.top, w: r.width, h: r.height };
	});
	await page.mouse.move(over.x + over.w * 0.3, over.y + over.h / 2);
	await page.mouse.down();
	await page.mouse.move(over.x + over.w * 0.45, over.y + over.h / 2, { steps: 5 });
	await page.mouse.move(over.x + over.w * 0.6, over.y + over.h / 2, { steps: 5 });
	await page.mouse.up();
	await pause(100);
	const zoomed = await page.evaluate(() => ({ view: { ...window.caretReport.view },
		axes: window.caretReport.timeAxes() }));
	check(zoomed.view.max - zoomed.view.min < first.duration * 0.5 && zoomed.view.min > 0,
		`the drag zoomed to ${zoomed.view.min.toFixed(6)}–${zoomed.view.max.toFixed(6)} s of ${first.duration} s`);
	const unlinked = zoomed.axes.filter((a) => Math.abs(a.min - zoomed.view.min) > 1e-9 ||
		Math.abs(a.max - zoomed.view.max) > 1e-9);
	check(zoomed.axes.length > 1 && unlinked.length === 0,
		`every one of the ${zoomed.axes.length} timelines moved with it (${unlinked.length} did not)`);
	await page.mouse.click(over.x + over.w * 0.5, over.y + over.h / 2, { clickCount: 2 });
	await pause(100);
	const reset = await page.evaluate(() => ({ ...window.caretReport.view }));
	check(reset.min === 0 && Math.abs(reset.max - first.duration) < 1e-9,
		'a double-click shows the whole recordings again');

	/* hovering shows values: each side's greatest point, the tallest bar */
	const tipAt = async (point) => {
		await page.mouse.move(point.x, point.y);
		await pause(100);
		const text = await page.evaluate(() => {
			const t = document.getElementById('tip');
			return t.style.display === 'block' ? t.textContent : '';
		});
		await page.mouse.move(0, 0);
		return text;
	};
	for (const side of [0, 1]) {
		const point = await page.evaluate((s) => window.caretReport.pointOf(
			document.querySelector('.card[data-chart]'), s), side);
		const text = point ? await tipAt(point) : '';
		const name = side ? 'new' : 'base';
		check(new RegExp(`^${name}: \\w+ #[\\d,]+\\nat [\\d.]+ s\\n[\\d.]+ ms$`).test(text),
			`hovering the greatest point of ${name} shows ${JSON.stringify(text)}`);
	}
	const bar = await page.evaluate(() => {
		const card = document.querySelector('.card[data-chart]');
		const u = card.caretCard.charts[1].u, r = card.querySelector('.hist .u-over').getBoundingClientRect();
		let best = 0;
		for (let i = 1; i < u.data[1].length; i++)
			if (u.data[1][i] > u.data[1][best])
				best = i;
		return { x: r.left + u.valToPos(best + 0.5, 'x'), y: r.bottom - 4 };
	});
	const barText = await tipAt(bar);
	check(/ms to [\d.]+ ms\nbase: [\d,]+ \w+ \([\d.]+ %\)\nnew: [\d,]+ \w+ \([\d.]+ %\)$/.test(barText),
		`hovering the tallest bar shows ${JSON.stringify(barText)}`);

	/* the cumulative distributions */
	const switched = await page.evaluate(() => {
		const section = document.querySelector('.card[data-chart]').closest('section');
		const button = Array.from(section.querySelectorAll('.dist-switch button'))
			.find((b) => b.textContent === 'cumulative');
		button.click();
		return Array.from(section.querySelectorAll('.card[data-chart]')).map((el) => {
			const c = window.caretReport.chartsOf(el);
			return c ? c.how : null;
		});
	});
	check(switched.length > 0 && switched.every((h) => h === 'cumulative'),
		`the switch drew the section's ${switched.length} distributions cumulative`);
	const cdfPoint = await page.evaluate(() => {
		const card = document.querySelector('.card[data-chart]');
		card.scrollIntoView({ block: 'center' });
		const r = card.querySelector('.hist .u-over').getBoundingClientRect();
		return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
	});
	await pause(150);
	const cdfText = await tipAt(cdfPoint);
	check(/^at or below [\d.]+ ms\nbase: [\d.]+ %\nnew: [\d.]+ %$/.test(cdfText),
		`hovering the cumulative distributions shows ${JSON.stringify(cdfText)}`);

	/* the search keeps what matches */
	const names = cards.map((c) => c.name);
	if (names.length > 1) {
		const query = names[names.length - 1];
		await page.evaluate(() => window.scrollTo(0, 0));
		await page.click('#search');
		await page.keyboard.type(query);
		await pause(100);
		const searched = await page.evaluate((q) => {
			const visible = Array.from(document.querySelectorAll('.card[data-chart]'))
				.filter((c) => !c.classList.contains('hidden'));
			return { visible: visible.length, wrong: visible.filter((c) =>
				!c.getAttribute('data-name').toLowerCase().includes(q.toLowerCase())).length };
		}, query);
		check(searched.visible >= 1 && searched.wrong === 0 && searched.visible < names.length,
			`searching ${JSON.stringify(query)} keeps ${searched.visible} of ${names.length} cards, all matching`);
		await page.click('#search', { clickCount: 3 });
		await page.keyboard.press('Backspace');
	}

	const shot = option('--screenshot');
	if (shot) {
		/* the top: both sides, the changes and the first cards */
		const top = await chromium.browser.newPage();
		await top.setRequestInterception(true);
		top.on('request', (r) => (r.url() === url ? r.continue() : r.abort()));
		await top.setViewport({ width: 1280, height: 1500 });
		await top.goto(url, { waitUntil: 'load' });
		await top.waitForFunction('window.caretReport && window.caretReport.ready', { timeout: 20000 });
		await top.screenshot({ path: shot });
		check(statSync(shot).size > 20000, `screenshot ${shot}`);
	}
	check(messages.length === 0, `no console message${messages.length ? ': ' + messages.slice(0, 5).join(' | ') : ''}`);
	check(requests.length === 0, `no request left the page${requests.length ? ': ' + requests.slice(0, 5).join(' ') : ''}`);
	if (args.includes('--timing'))
		console.log(JSON.stringify({ file, bytes: statSync(file).size, cards: cards.length,
			readyMs: Math.round(first.readyMs) }));
} finally {
	await chromium.close();
}
process.exit(failures ? 1 : 0);
