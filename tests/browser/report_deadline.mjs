#!/usr/bin/env node
/*
 * report_deadline.mjs - a report's deadlines as drawn in headless
 * Chromium: per card with a deadline, the timeline's dashed line at the
 * deadline (its pixels red where the data puts it), the instances over it
 * in red (as many as the table's misses cell and the page's data say),
 * the histogram's dashed marker and red bins past it; a snapshot's miss:
 * named in the header, its instance ringed on its path's timeline (black
 * pixels around the point). A line "ok ..." per check passed, "FAIL ..."
 * per check failed; exit 1 on any failure.
 *
 * usage: node report_deadline.mjs REPORT.html --deadlines N [--snapshot PATH]
 *        [--screenshots DIR]
 *   N: how many cards must draw a deadline; PATH: the path (its label in
 *   the miss file) of the snapshot's miss the header must name, a card
 *   ringing it; DIR: each such card's charts as drawn (deadline-N.png).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch } from './chromium.mjs';

const args = process.argv.slice(2);
const file = resolve(args[0] || '');
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const wantDeadlines = Number(opt('--deadlines') || 0);
const snapshot = opt('--snapshot');
const shots = opt('--screenshots');
let failed = 0;
const check = (ok, what) => {
	console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
	failed += ok ? 0 : 1;
};

const chromium = await launch();
try {
	const page = await chromium.browser.newPage();
	const messages = [];
	page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
	page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
	await page.setViewport({ width: 1280, height: 900 });
	await page.goto('file://' + file, { waitUntil: 'load' });
	await page.waitForFunction('window.caretReport && window.caretReport.ready', { timeout: 20000 });
	const ids = await page.evaluate(() => Array.from(document.querySelectorAll('.card[data-chart]'))
		.filter((el) => el.caretCard && (el.caretCard.data.dl || el.caretCard.data.snap))
		.map((el) => el.id));
	check(ids.filter((id) => id).length >= wantDeadlines,
		`${ids.length} cards with a deadline or a snapshot's miss (at least ${wantDeadlines})`);
	let drawn = 0;
	for (let n = 0; n < ids.length; n++) {
		await page.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'center' }),
			ids[n]);
		await new Promise((r) => setTimeout(r, 300));
		const c = await page.evaluate((id) => {
			const el = document.getElementById(id), card = el.caretCard;
			if (!card.drawn)
				card.draw();
			const data = card.data, dl = data.dl;
			const metric = window.caretReport.sections[card.section].metric;
			const tl = card.charts[0], hist = card.charts[1];
			/* a pixel of a chart's canvas at a value's place (canvas pixels), the
			 * canvas read once */
			const images = new Map();
			const pixel = (u, x, y) => {
				if (!images.has(u))
					images.set(u, u.ctx.getImageData(0, 0, u.ctx.canvas.width, u.ctx.canvas.height));
				const img = images.get(u), at = (Math.round(y) * img.width + Math.round(x)) * 4;
				return Array.from(img.data.slice(at, at + 4));
			};
			const out = { title: data.title, metric, dl: dl || null, snap: data.snap || [] };
			if (dl && dl.m === metric) {
				const u = tl.u, box = u.bbox;
				const y = u.valToPos(dl.v / 1000, 'y', true);
				/* along the line, past its label: the dashes' red */
				let red = 0;
				for (let x = box.left + box.width * 0.5; x < box.left + box.width * 0.9; x += 2) {
					const p = pixel(u, x, y);
					red += p[0] > 180 && p[1] < 90 && p[2] < 90 ? 1 : 0;
				}
				out.linePixelsRed = red;
				out.overDrawn = u.data[2] ? u.data[2].filter((v) => v !== null).length : -1;
				out.overAbove = u.data[2] ? u.data[2].every((v, i) => v === null ?
					u.data[1][i] <= dl.v / 1000 : v > dl.v / 1000) : false;
				out.thinned = !!tl.s.i;
				const h = hist.u;
				out.redBins = h.data[2] ? h.data[2].filter((v) => v !== null).length : -1;
				/* the histogram's marker: red pixels down a column */
				let col = 0;
				for (let x = h.bbox.left; x < h.bbox.left + h.bbox.width; x++) {
					let reds = 0;
					for (let yy = h.bbox.top; yy < h.bbox.top + h.bbox.height; yy += 4) {
						const p = pixel(h, x, yy);
						reds += p[0] > 180 && p[1] < 90 && p[2] < 90 ? 1 : 0;
					}
					col = Math.max(col, reds);
				}
				out.markerRedRun = col;
				out.markerRows = Math.floor(h.bbox.height / 4);
				const cell = el.querySelector('td.misses') ||
					document.querySelector(`tr[data-name="${data.title}"] td.misses`);
				out.cell = cell ? Number(cell.textContent) : null;
			}
			if (out.snap.length && metric === 'end to end') {
				const u = tl.u, s = out.snap[0];
				const x = u.valToPos(s.x / 1e6, 'x', true), y = u.valToPos(s.y / 1000, 'y', true);
				const r = 9 * devicePixelRatio;
				/* on the ring: left, right, above, below the point (a dark opaque
				 * pixel within 2 of its radius) */
				const dark = (px, py) => {
					const q = pixel(u, px, py);
					return q[0] < 60 && q[1] < 60 && q[2] < 60 && q[3] > 200;
				};
				out.ring = [[-1, 0], [1, 0], [0, -1], [0, 1]].map((d) => {
					for (let k = r - 2; k <= r + 2; k++)
						if (dark(x + d[0] * k, y + d[1] * k))
							return true;
					return false;
				});
			}
			return out;
		}, ids[n]);
		if (shots) {
			mkdirSync(shots, { recursive: true });
			/* its charts, in the middle of the screen (clear of the bar on top) */
			const el = await page.$(`#${ids[n]} .plots`);
			await page.evaluate((e) => e.scrollIntoView({ block: 'center' }), el);
			await el.screenshot({ path: join(shots, `deadline-${n}.png`) });
		}
		if (c.dl && c.dl.m === c.metric) {
			drawn++;
			check(c.linePixelsRed > 10, `${c.title}: the deadline's dashed line drawn red at ` +
				`${c.dl.v / 1000} ms (${c.linePixelsRed} red pixels along it)`);
			check(c.overAbove, `${c.title}: the red points are those over the deadline`);
			if (!c.thinned)
				check(c.overDrawn === c.dl.n, `${c.title}: ${c.overDrawn} points drawn red, ` +
					`${c.dl.n} instances over the deadline`);
			check(c.cell === c.dl.n, `${c.title}: the table's misses ${c.cell}, the data's ${c.dl.n}`);
			check(c.markerRedRun > c.markerRows * 0.4, `${c.title}: the histogram's marker ` +
				`(${c.markerRedRun} of ${c.markerRows} rows red in one column)`);
			check(c.dl.n === 0 || c.redBins > 0, `${c.title}: ${c.redBins} bins past the deadline red`);
		}
		if (c.snap.length && c.metric === 'end to end')
			check(c.ring && c.ring.every((x) => x), `${c.title}: the snapshot's instance ringed ` +
				`(${JSON.stringify(c.ring)})`);
	}
	check(drawn >= wantDeadlines, `${drawn} deadlines drawn (at least ${wantDeadlines})`);
	if (snapshot) {
		const header = await page.evaluate(() => {
			const row = document.querySelector('header tr.snapshot-miss');
			return row ? row.textContent : '';
		});
		check(header.includes(snapshot), `the header names the snapshot's miss: ${header}`);
		check(await page.evaluate(() => Array.from(document.querySelectorAll('.card[data-chart]'))
			.some((el) => (el.caretCard.data.snap || []).length)), 'a path card has the miss');
	}
	const errors = await page.evaluate(() => window.caretReport.errors);
	check(!messages.length && !errors.length, `no console message or error ` +
		`${JSON.stringify(messages.concat(errors))}`);
} finally {
	await chromium.close();
}
process.exit(failed ? 1 : 0);
