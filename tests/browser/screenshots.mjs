#!/usr/bin/env node
/*
 * screenshots.mjs - the pictures of docs/report.md, taken from a report
 * (the demo's) in headless Chromium at 1280 px: the top of the page, a
 * path's section, and the scheduling view zoomed to a few of the path's
 * instances.
 *
 * usage: node screenshots.mjs REPORT.html OUT_DIR
 */
import { join, resolve } from 'node:path';
import { launch } from './chromium.mjs';

const [file, outDir] = process.argv.slice(2).map((a) => resolve(a));
const chromium = await launch();
const browser = chromium.browser;
try {
	const page = await browser.newPage();
	await page.setViewport({ width: 1280, height: 1000 });
	await page.goto('file://' + file, { waitUntil: 'load' });
	await page.waitForFunction('window.caretReport && window.caretReport.ready');
	await page.evaluate(() => window.caretReport.drawAll());
	await new Promise((r) => setTimeout(r, 300));
	await page.screenshot({ path: join(outDir, 'report-demo-top.png') });
	const shoot = async (selector, name, height) => {
		const box = await page.evaluate((s) => {
			const r = document.querySelector(s).getBoundingClientRect();
			return { y: r.top + window.scrollY, h: r.height };
		}, selector);
		await page.screenshot({ path: join(outDir, name), captureBeyondViewport: true,
			clip: { x: 0, y: box.y - 8, width: 1280, height: Math.min(box.h + 16, height) } });
	};
	await shoot('#paths .card', 'report-demo-paths.png', 1700);
	/* the scheduling view around the slowest instance */
	await page.evaluate(() => {
		const card = document.querySelector('#paths .card[data-chart]');
		const data = card.caretCard.data, e2e = data.m['end to end'];
		let worst = 0;
		for (let i = 1; i < e2e.y.length; i++)
			if (e2e.y[i] > e2e.y[worst])
				worst = i;
		const at = e2e.x[worst] / 1e6;
		window.caretReport.setView(at - 0.003, at + 0.009);
	});
	await new Promise((r) => setTimeout(r, 200));
	await shoot('#sched', 'report-demo-scheduling.png', 900);
} finally {
	await chromium.close();
}
