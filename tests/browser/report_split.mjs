#!/usr/bin/env node
/*
 * report_split.mjs - what report_split.py checks, measured in headless
 * Chromium: a report's page opened and drawn, then per path card its bar
 * of hops (each segment's drawn width and value, the parts inside a topic
 * hop's), the worst instances' table (each topic hop's row and the rows of
 * its parts), the flows (each topic hop's split lines, where they start
 * and end, and the bar of the node that takes the message after), and any
 * element of the split on the page. One JSON object on stdout.
 *
 * usage: node report_split.mjs REPORT.html [--screenshots DIR]
 *   DIR: the page (page.png) and each path card (path-N.png) as drawn.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch } from './chromium.mjs';

const args = process.argv.slice(2);
const file = resolve(args[0] || '');
const shots = args.includes('--screenshots') ? args[args.indexOf('--screenshots') + 1] : null;

const chromium = await launch();
try {
	const page = await chromium.browser.newPage();
	const messages = [];
	page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
	page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
	await page.setViewport({ width: 1280, height: 900 });
	await page.goto('file://' + file, { waitUntil: 'load' });
	await page.waitForFunction('window.caretReport && window.caretReport.ready', { timeout: 20000 });
	const out = await page.evaluate(() => {
		const num = (s) => (s === '—' ? null : Number(s));
		const width = (el) => el.getBoundingClientRect().width;
		const attr = (el, name) => (el.hasAttribute(name) ? Number(el.getAttribute(name)) : null);
		/* a mark of a flow: a node's bar (rect) or a line, where it starts and ends */
		const mark = (m) => {
			const rect = m.tagName === 'rect', title = m.querySelector('title');
			return { tag: m.tagName, part: m.hasAttribute('data-part') ? attr(m, 'data-part') : -1,
				us: attr(m, 'data-us'), x1: attr(m, rect ? 'x' : 'x1'),
				x2: rect ? attr(m, 'x') + attr(m, 'width') : attr(m, 'x2'),
				title: title ? title.textContent : '' };
		};
		const cards = Array.from(document.querySelectorAll('#paths .card.path')).map((card) => {
			const title = card.querySelector('h3').textContent;
			const segments = Array.from(card.querySelectorAll('.stack > span')).map((s) => ({
				title: s.getAttribute('title'),
				split: s.classList.contains('split'),
				ns: Number(s.getAttribute('data-ns')),
				width: width(s),
				parts: Array.from(s.querySelectorAll(':scope > .part')).map((p) => ({
					cls: p.className, ns: Number(p.getAttribute('data-ns')), width: width(p),
					title: p.getAttribute('title'),
				})),
			}));
			/* the worst instances' rows: a hop's, then its parts' */
			const heads = Array.from(card.querySelectorAll('table.worst thead th')).slice(1)
				.map((th) => th.childNodes[0].textContent);
			const rows = Array.from(card.querySelectorAll('table.worst tbody tr')).map((tr) => ({
				part: tr.classList.contains('part') ? Number(tr.getAttribute('data-part')) : -1,
				label: tr.cells[0].textContent,
				cells: Array.from(tr.cells).slice(1).map((td) => num(td.textContent)),
			}));
			/* each flow's topic hops: their lines, in order */
			const flows = Array.from(card.querySelectorAll('.flow')).map((f) => ({
				name: f.getAttribute('data-name'),
				marks: Array.from(f.querySelectorAll('svg .pt')).map(mark),
			}));
			const note = card.querySelector('.split-note');
			return { title, segments, heads, rows, flows, note: note ? note.textContent : null };
		});
		const any = document.querySelectorAll('.stack .split, .stack .part, .split-legend, .split-note, ' +
			'tr.part, .split-part').length;
		return { cards, splitElements: any, errors: window.caretReport.errors.slice() };
	});
	out.messages = messages;
	if (shots) {
		mkdirSync(shots, { recursive: true });
		/* the bar at the top stays over what scrolls: not over the cards' pictures */
		await page.addStyleTag({ content: 'nav#bar { position: static !important; }' });
		out.screenshots = [];
		const cards = await page.$$('#paths .card.path');
		for (let i = 0; i < cards.length; i++) {
			const path = join(shots, `path-${i}.png`);
			await cards[i].screenshot({ path });
			out.screenshots.push(path);
		}
		const path = join(shots, 'page.png');
		await page.screenshot({ path, fullPage: true });
		out.screenshots.push(path);
	}
	console.log(JSON.stringify(out));
} finally {
	await chromium.close();
}
