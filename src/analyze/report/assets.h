/*
 * assets.h - the report's web assets, carried in the binary (embed.cmake
 * generates their definitions at build time): uPlot's script and styles
 * (from npm, pinned in web/package-lock.json) and the page's own
 * (the files of web/page/ joined in one function, and web/report.css), and
 * the A/B page's (caret report --baseline: some of web/page/ and web/ab/
 * joined, web/ab/ab.css).
 */
#ifndef CA_REPORT_ASSETS_H
#define CA_REPORT_ASSETS_H

#include <stddef.h>

extern const char ca_asset_uplot_js[], ca_asset_uplot_css[];
extern const char ca_asset_report_js[], ca_asset_report_css[];
extern const size_t ca_asset_uplot_js_size, ca_asset_uplot_css_size;
extern const size_t ca_asset_report_js_size, ca_asset_report_css_size;
extern const char ca_asset_ab_js[], ca_asset_ab_css[];
extern const size_t ca_asset_ab_js_size, ca_asset_ab_css_size;

#endif
