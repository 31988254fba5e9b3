/*
 * chromium.mjs - Debian's Chromium (or CARET_CHROMIUM) started headless by
 * puppeteer-core with the flags this machine needs: no sandbox (root), no
 * GPU, no background networking (its connections are refused here), a
 * fresh profile; close() ends it and removes the profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

export async function launch() {
	const profile = mkdtempSync(join(tmpdir(), 'caret-chromium-'));
	const browser = await puppeteer.launch({
		executablePath: process.env.CARET_CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			'--disable-extensions', `--user-data-dir=${profile}`],
	});
	return {
		browser,
		close: async () => {
			await browser.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}
