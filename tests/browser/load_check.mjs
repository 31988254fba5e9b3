#!/usr/bin/env node
/*
 * load_check.mjs - a report must be whole when its load event fires (a
 * screenshot or a print taken then shows it all): opened several times in
 * headless Chromium, at the load event itself (a listener put in before the
 * page's scripts) each path's timeline and histogram hold coloured pixels
 * and its worst instances' flows have their marks, as do the charts of
 * every card (of the first screen's alone past 80 cards, as page.js
 * draws them). A screenshot is taken right after each load.
 *
 * usage: node load_check.mjs REPORT.html [--times N] [--screenshots DIR]
 * Prints one line per check ("ok ..." or "FAIL ..."); exit 1 when one fails.
 */
import { join, resolve } from 'node:path';
import { launch } from './chromium.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : fallback;
};
const url = 'file://' + resolve(args[0] || '');
const times = Number(option('--times', '4'));
const shots = option('--screenshots');
let failures = 0;
const check = (ok, what) => {
	console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
	if (!ok)
		failures++;
};

/* Runs in the page at its load event: what is drawn then. */
function atLoad() {
	function coloured(canvas) {
		const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) {
			const max = Math.max(d[i], d[i + 1], d[i + 2]), min = Math.min(d[i], d[i + 1], d[i + 2]);
			if (d[i + 3] > 0 && max - min > 40)
				n++;
		}
		return n;
	}
	const out = { paths: 0, blank: [], flows: 0, unmarked: [], cards: 0 };
	const blankOf = (card) => ['.tl', '.hist'].filter((part) => {
		const c = card.querySelector(part + ' canvas');
		return !c || coloured(c) < 3;
	}).map((part) => card.getAttribute('data-name') + ' ' + part);
	document.querySelectorAll('#paths .card[data-chart]').forEach((card) => {
		out.paths++;
		out.blank.push(...blankOf(card));
		const worst = card.querySelector('table.worst');
		const flows = card.querySelectorAll('.flows .flow');
		out.flows += flows.length;
		if (worst && !flows.length)
			out.unmarked.push(card.getAttribute('data-name') + ': no flow');
		flows.forEach((f) => {
			if (!f.querySelector('svg .pt'))
				out.unmarked.push(card.getAttribute('data-name') + ': ' + f.getAttribute('data-name'));
		});
	});
	document.querySelectorAll('.card[data-chart]').forEach((card) => {
		const r = card.getBoundingClientRect();
		const all = document.querySelectorAll('.card[data-chart]').length <= 80; /* page.js */
		if ((all || (r.top < window.innerHeight && r.bottom > 0)) && !card.closest('#paths') &&
		    !card.classList.contains('hidden') && !card.querySelector('.empty')) {
			out.cards++;
			out.blank.push(...blankOf(card));
		}
	});
	window.caretAtLoad = out;
}

const chromium = await launch();
try {
	for (let i = 0; i < times; i++) {
		const page = await chromium.browser.newPage();
		await page.setViewport({ width: 1280, height: 1000 });
		await page.evaluateOnNewDocument(`window.addEventListener('load', ${atLoad.toString()})`);
		await page.goto(url, { waitUntil: 'load' });
		if (shots)
			await page.screenshot({ path: join(resolve(shots), `at-load-${i + 1}.png`), fullPage: true });
		const got = await page.evaluate(() => window.caretAtLoad || null);
		if (!got) {
			check(false, `load ${i + 1}: the listener did not run`);
		} else {
			check(got.blank.length === 0, `load ${i + 1}: ${got.paths} paths' and ${got.cards} ` +
				`other cards' charts drawn at the load event; blank: ${JSON.stringify(got.blank)}`);
			check(got.unmarked.length === 0 && (got.paths === 0 || got.flows > 0),
				`load ${i + 1}: ${got.flows} flows drawn at the load event; without marks: ` +
				JSON.stringify(got.unmarked));
		}
		await page.close();
	}
} finally {
	await chromium.close();
}
process.exit(failures ? 1 : 0);
