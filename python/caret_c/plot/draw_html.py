"""A Chart as one self-contained, interactive HTML page: uPlot (the chart
library of caret's HTML report, docs/dev/report.md) and the page's own
script (web/plot.js) inline, the data as JSON; it fetches nothing, so it
opens offline and in a notebook's iframe."""
import html
import json
import os

from .chart import PALETTE

HERE = os.path.dirname(os.path.abspath(__file__))
UPLOT_FILES = ('uPlot.iife.min.js', 'uPlot.min.css')
LEGENDS = ('lines', 'histogram', 'stacked')  # the kinds with uPlot's legend


def uplot_places():
    """Where uPlot may be, in order: CARET_UPLOT_DIR; next to this package
    (make install puts it in plot/web/uplot); the checkout's npm tree
    (make deps: npm ci in src/analyze/report/web)."""
    if os.environ.get('CARET_UPLOT_DIR'):
        yield os.environ['CARET_UPLOT_DIR']
    yield os.path.join(HERE, 'web', 'uplot')
    yield os.path.normpath(os.path.join(HERE, '..', '..', '..', 'src', 'analyze', 'report',
                                        'web', 'node_modules', 'uplot', 'dist'))


def uplot():
    """(script, styles) of uPlot."""
    tried = []
    for place in uplot_places():
        paths = [os.path.join(place, f) for f in UPLOT_FILES]
        if all(os.path.exists(p) for p in paths):
            return tuple(_read(p) for p in paths)
        tried.append(place)
    raise FileNotFoundError('caret_c.plot: uPlot (the HTML chart library) not found; set '
                            'CARET_UPLOT_DIR to its dist directory. Tried: ' + '; '.join(tried))


def _read(path):
    with open(path, encoding='utf-8') as fh:
        return fh.read()


def _inline_json(value):
    """JSON that no '</script>' or '<!--' inside a string can end early."""
    return json.dumps(value, separators=(',', ':')).replace('<', '\\u003c')


def page(chart, title=''):
    """The HTML page of a chart; title: the page's (the chart's by default)."""
    script, styles = uplot()
    data = chart.to_json()
    data['palette'] = PALETTE
    heading = title or chart.title
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>{html.escape(heading)}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<style>{styles}</style><style>{_read(os.path.join(HERE, "web", "plot.css"))}'
            '</style></head><body>'
            f'<h1>{html.escape(heading)}</h1>'
            + (f'<p class="origin">0 s is {html.escape(chart.origin_text)} (local time)</p>'
               if chart.origin_ns is not None else '') +
            '<div id="caret-plot"></div><p id="caret-plot-status"></p>'
            '<p class="help">drag to zoom, double-click to see all' +
            ('; click a legend entry to hide it' if chart.kind in LEGENDS else '') + '</p>'
            f'<script type="application/json" id="caret-plot-data">{_inline_json(data)}'
            f'</script><script>{script}</script>'
            f'<script>{_read(os.path.join(HERE, "web", "plot.js"))}</script>'
            '</body></html>\n')


def iframe(chart, height=None):
    """The page inside an iframe (srcdoc): how a notebook shows it, its
    script and styles kept to itself."""
    lanes = len(chart.data.get('lanes', [])) or len(chart.data.get('stages', []))
    height = height or (620 if not lanes else max(560, 220 + 30 * lanes))
    return (f'<iframe srcdoc="{html.escape(page(chart), quote=True)}" '
            f'style="width: 100%; height: {height}px; border: 0"></iframe>')
