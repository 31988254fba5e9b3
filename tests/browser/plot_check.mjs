#!/usr/bin/env node
/*
 * plot_check.mjs - opens HTML plots that caret_c's plot.save('x.html')
 * wrote in headless Chromium, offline (any request the page makes is
 * refused and fails the check), as a person would: the page says it is
 * drawn, no console message or page error, the chart's canvas holds
 * opaque coloured pixels (marks of data, not axes or tints), a drag across it zooms
 * (the x axis's range shrinks) and a double-click shows everything again.
 *
 * usage: node plot_check.mjs PLOT.html... [--screenshots DIR]
 * One line per check ("ok ..." or "FAIL ..."); exit 1 when one fails.
 */
import { basename, join, resolve } from 'node:path';
import { launch } from './chromium.mjs';

const args = process.argv.slice(2);
const shots = args.indexOf('--screenshots') >= 0 ? args[args.indexOf('--screenshots') + 1] : null;
const files = args.filter((a, i) => a !== '--screenshots' && args[i - 1] !== '--screenshots');
let failures = 0;
const check = (ok, what) => {
	console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
	if (!ok)
		failures++;
};

const chromium = await launch();
try {
	for (const file of files) {
		const url = 'file://' + resolve(file), name = basename(file);
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
		const ready = await page.waitForFunction('window.caretPlot && (window.caretPlot.ready || window.caretPlot.error)',
			{ timeout: 10000 }).then(() => page.evaluate(() => window.caretPlot.ready), () => false);
		check(ready, `${name}: drawn (${await page.evaluate(() => window.caretPlot && window.caretPlot.kind)})`);
		const drawn = await page.evaluate(() => {
			const canvas = document.querySelector('#caret-plot canvas');
			if (!canvas)
				return -1;
			const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
			let n = 0;
			for (let i = 0; i < d.length; i += 4) {
				const max = Math.max(d[i], d[i + 1], d[i + 2]), min = Math.min(d[i], d[i + 1], d[i + 2]);
				if (d[i + 3] > 128 && max - min > 40) /* opaque: marks, not a lane's tint */
					n++;
			}
			return n;
		});
		check(drawn > 100, `${name}: the chart has ${drawn} coloured pixels`);
		if (!ready || drawn < 0) { /* nothing to drag on */
			check(false, `${name}: ${JSON.stringify(messages)}`);
			await page.close();
			continue;
		}
		/* a drag across the middle half of the plot zooms the x axis */
		const over = await page.evaluate(() => {
			const r = document.querySelector('#caret-plot .u-over').getBoundingClientRect();
			const x = window.caretPlot.plot.scales.x;
			return { left: r.left, top: r.top, width: r.width, height: r.height, span: x.max - x.min };
		});
		const y = over.top + over.height / 2;
		await page.mouse.move(over.left + over.width * 0.25, y);
		await page.mouse.down();
		await page.mouse.move(over.left + over.width * 0.5, y, { steps: 5 });
		await page.mouse.up();
		const zoomed = await page.evaluate(() => {
			const x = window.caretPlot.plot.scales.x;
			return x.max - x.min;
		});
		check(zoomed < over.span * 0.5, `${name}: a drag zooms (x span ${over.span.toPrecision(4)} -> ${zoomed.toPrecision(4)})`);
		if (shots)
			await page.screenshot({ path: join(shots, name.replace(/\.html?$/, '-zoomed.png')) });
		await page.mouse.click(over.left + over.width / 2, y, { count: 2 });
		const whole = await page.evaluate(() => {
			const x = window.caretPlot.plot.scales.x;
			return x.max - x.min;
		});
		check(Math.abs(whole - over.span) <= over.span * 1e-6, `${name}: a double-click shows everything again`);
		check(messages.length === 0, `${name}: no console message or page error ${JSON.stringify(messages)}`);
		check(requests.length === 0, `${name}: nothing fetched ${JSON.stringify(requests)}`);
		if (shots)
			await page.screenshot({ path: join(shots, name.replace(/\.html?$/, '.png')), fullPage: true });
		await page.close();
	}
} finally {
	await chromium.close();
}
process.exit(failures ? 1 : 0);
