#!/usr/bin/env node
/*
 * report_check.mjs - opens a report of `caret report` in headless Chromium
 * (Debian's, driven by puppeteer-core) as a person would, and checks it:
 * no console message and no request leaves the page; the page fits 1280
 * px; every chart is drawn (its canvas holds coloured pixels, each path's
 * flows have their marks); a drag across a timeline zooms every chart on
 * the time axis to the same range and a double-click shows the whole trace
 * again; hovering a point, a histogram bar and a run shows its value; a
 * click on the end-to-end timeline draws that instance's flow; the search
 * box keeps only what matches.
 *
 * usage: node report_check.mjs REPORT.html [--screenshot FILE.png]
 *        [--expect-node NAME]... [--timing]
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
const expectNodes = args.flatMap((a, i) => (a === '--expect-node' ? [args[i + 1]] : []));
const url = 'file://' + file;
let failures = 0;
const check = (ok, what) => {
	console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
	if (!ok)
		failures++;
};

const settle = () => new Promise((r) => setTimeout(r, 150)); /* scroll events first */

const chromium = await launch();
const browser = chromium.browser;
try {
	const page = await browser.newPage();
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
	const started = Date.now();
	await page.goto(url, { waitUntil: 'load' });
	await page.waitForFunction('window.caretReport && window.caretReport.ready', { timeout: 20000 });
	const loadMs = Date.now() - started;
	const first = await page.evaluate(() => ({
		width: document.documentElement.scrollWidth,
		readyMs: window.caretReport.readyMs,
		navigationMs: performance.now(),
		duration: window.caretReport.duration,
		text: document.body.innerText,
	}));
	check(first.width <= 1280, `the page fits 1280 px (${first.width} px wide)`);
	for (const node of expectNodes)
		check(first.text.includes(node), `the page names ${node}`);

	/* every chart drawn */
	await page.evaluate(() => window.caretReport.drawAll());
	await new Promise((r) => setTimeout(r, 200));
	const drawn = await page.evaluate(() => {
		/* coloured (not grey) pixels of a canvas: marks of data, not axes */
		function coloured(canvas) {
			const ctx = canvas.getContext('2d');
			const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
			let n = 0;
			for (let i = 0; i < d.length; i += 4) {
				const max = Math.max(d[i], d[i + 1], d[i + 2]), min = Math.min(d[i], d[i + 1], d[i + 2]);
				if (d[i + 3] > 0 && max - min > 40)
					n++;
			}
			return n;
		}
		const out = { cards: 0, blank: [], empty: [], flows: 0, flowMarks: [], sched: -1 };
		document.querySelectorAll('.card[data-chart]').forEach((card) => {
			out.cards++;
			const name = card.getAttribute('data-name');
			if (card.querySelector('.empty')) {
				out.empty.push(name);
				return;
			}
			for (const part of ['.tl', '.hist']) {
				const c = card.querySelector(part + ' canvas');
				if (!c || coloured(c) < 3)
					out.blank.push(name + ' ' + part);
			}
			card.querySelectorAll('.flow').forEach((f) => {
				out.flows++;
				if (!f.querySelector('svg .pt'))
					out.flowMarks.push(name);
			});
		});
		const sched = document.querySelector('.sched canvas');
		if (sched)
			out.sched = coloured(sched);
		return out;
	});
	check(drawn.cards > 0 && drawn.blank.length === 0,
		`every chart drawn: ${drawn.cards} cards, blank: ${JSON.stringify(drawn.blank)}`);
	check(drawn.empty.length === 0, `no card without data: ${JSON.stringify(drawn.empty)}`);
	check(drawn.flowMarks.length === 0, `${drawn.flows} flows of paths drawn`);
	check(drawn.sched > 0, `the scheduling view drawn (${drawn.sched} coloured pixels)`);

	/* a drag across a timeline zooms every chart on the time axis */
	await page.evaluate(() => document.querySelector('.card[data-chart] .tl')
		.scrollIntoView({ block: 'center' }));
	await settle();
	const over = await page.evaluate(() => {
		const el = document.querySelector('.card[data-chart] .tl .u-over');
		const r = el.getBoundingClientRect();
		return { x: r.left, y: r.top, w: r.width, h: r.height };
	});
	await page.mouse.move(over.x + over.w * 0.25, over.y + over.h / 2);
	await page.mouse.down();
	await page.mouse.move(over.x + over.w * 0.4, over.y + over.h / 2, { steps: 5 });
	await page.mouse.move(over.x + over.w * 0.5, over.y + over.h / 2, { steps: 5 });
	await page.mouse.up();
	await new Promise((r) => setTimeout(r, 100));
	const zoomed = await page.evaluate(() => ({ view: { ...window.caretReport.view },
		axes: window.caretReport.timeAxes() }));
	const span = zoomed.view.max - zoomed.view.min;
	check(span < first.duration * 0.5 && zoomed.view.min > 0,
		`the drag zoomed to ${zoomed.view.min.toFixed(6)}–${zoomed.view.max.toFixed(6)} s of ${first.duration} s`);
	const unlinked = zoomed.axes.filter((a) => Math.abs(a.min - zoomed.view.min) > 1e-9 ||
		Math.abs(a.max - zoomed.view.max) > 1e-9);
	check(zoomed.axes.length > 1 && unlinked.length === 0,
		`every one of the ${zoomed.axes.length} time axes moved with it (${unlinked.length} did not)`);
	await page.mouse.click(over.x + over.w * 0.5, over.y + over.h / 2, { clickCount: 2 });
	await new Promise((r) => setTimeout(r, 100));
	const reset = await page.evaluate(() => ({ ...window.caretReport.view }));
	check(reset.min === 0 && Math.abs(reset.max - first.duration) < 1e-9,
		'a double-click shows the whole trace again');

	/* hovering shows values */
	const hover = async (point, what, pattern) => {
		if (!point) {
			check(false, `${what}: nothing to hover`);
			return;
		}
		await page.mouse.move(point.x, point.y);
		await new Promise((r) => setTimeout(r, 100));
		const tip = await page.evaluate(() => {
			const t = document.getElementById('tip');
			return t.style.display === 'block' ? t.textContent : '';
		});
		check(pattern.test(tip), `hovering ${what} shows ${JSON.stringify(tip)}`);
		await page.mouse.move(0, 0);
	};
	const point = await page.evaluate(() => {
		const card = document.querySelector('#callbacks .card[data-chart]') ||
			document.querySelector('.card[data-chart]');
		card.scrollIntoView({ block: 'center' });
	});
	await settle();
	await hover(await page.evaluate(() => window.caretReport.pointOf(
		document.querySelector('#callbacks .card[data-chart]') ||
		document.querySelector('.card[data-chart]'))), 'the greatest point of a timeline', /#[\d,]+\nat [\d.]+ s\n[\d.]+ (ms|Hz)/);
	await page.evaluate(() => document.querySelector('.card[data-chart] .hist')
		.scrollIntoView({ block: 'center' }));
	await settle();
	const bar = await page.evaluate(() => {
		const card = document.querySelector('.card[data-chart]');
		const el = card.querySelector('.hist .u-over');
		const r = el.getBoundingClientRect();
		const u = card.caretCard.charts[1].u, ys = u.data[1];
		let best = 0;
		for (let i = 1; i < ys.length; i++)
			if (ys[i] > ys[best])
				best = i;
		return { x: r.left + u.valToPos(best + 0.5, 'x'), y: r.bottom - 4 };
	});
	await hover(bar, 'the tallest bar of a histogram', /ms to [\d.]+ ms\n[\d,]+ /);
	await page.evaluate(() => document.querySelector('#sched').scrollIntoView({ block: 'center' }));
	await settle();
	const run = await page.evaluate(() => window.caretReport.runPoint());
	await hover(run, 'the longest run of the scheduling view', /\nstart [\d.]+ s\n(took|not ended)/);

	/* a click on the end-to-end timeline draws that instance's flow */
	await page.evaluate(() => {
		const tl = document.querySelector('#paths .card[data-chart] .tl');
		if (tl)
			tl.scrollIntoView({ block: 'center' });
	});
	await settle();
	const pathPoint = await page.evaluate(() => {
		const card = document.querySelector('#paths .card[data-chart]');
		return card ? window.caretReport.pointOf(card) : null;
	});
	if (pathPoint) {
		await page.mouse.click(pathPoint.x, pathPoint.y);
		await new Promise((r) => setTimeout(r, 100));
		const picked = await page.evaluate(() => {
			const f = document.querySelector('#paths .flow.picked');
			return f ? { title: f.querySelector('h5').textContent, marks: f.querySelectorAll('.pt').length } : null;
		});
		check(picked && picked.marks > 0, `a click on the end-to-end timeline drew ${picked ? JSON.stringify(picked.title) : 'nothing'}`);
	}

	/* the search keeps what matches */
	const names = await page.evaluate(() => Array.from(document.querySelectorAll('#callbacks .card[data-chart]'))
		.map((c) => c.getAttribute('data-name')));
	if (names.length) {
		const query = names[names.length - 1];
		await page.evaluate(() => window.scrollTo(0, 0));
		await page.click('#search');
		await page.keyboard.type(query);
		await new Promise((r) => setTimeout(r, 100));
		const searched = await page.evaluate((q) => {
			const visible = Array.from(document.querySelectorAll('.card[data-chart]'))
				.filter((c) => !c.classList.contains('hidden'));
			return { total: document.querySelectorAll('.card[data-chart]').length, visible: visible.length,
				wrong: visible.filter((c) => !c.getAttribute('data-name').toLowerCase().includes(q.toLowerCase())).length };
		}, query);
		check(searched.visible >= 1 && searched.wrong === 0 && (searched.total === 1 || searched.visible < searched.total),
			`searching ${JSON.stringify(query)} keeps ${searched.visible} of ${searched.total} cards, all matching`);
		await page.click('#search', { clickCount: 3 });
		await page.keyboard.press('Backspace');
	}

	const shot = option('--screenshot');
	if (shot) {
		await page.evaluate(() => window.scrollTo(0, 0));
		await page.screenshot({ path: shot, fullPage: true });
		check(statSync(shot).size > 20000, `screenshot ${shot}`);
	}
	check(messages.length === 0, `no console message${messages.length ? ': ' + messages.slice(0, 5).join(' | ') : ''}`);
	check(requests.length === 0, `no request left the page${requests.length ? ': ' + requests.slice(0, 5).join(' ') : ''}`);
	if (args.includes('--timing'))
		console.log(JSON.stringify({ file, bytes: statSync(file).size, loadMs, readyMs: first.readyMs,
			navigationToReadyMs: Math.round(first.navigationMs) }));
} finally {
	await chromium.close();
}
process.exit(failures ? 1 : 0);
