"""A Chart drawn as a matplotlib Figure (PNG, SVG, a notebook's image).
The Figure is its own, not pyplot's: a notebook shows it once, where a
cell returns it."""
import numpy

from .chart import colour

LEGEND_LIMIT = 20  # the original's: more objects than this, no legend


def _notebook_shows_figures():
    """In a notebook's kernel, a Figure returned by a cell shows as a PNG
    (the formatter pyplot's inline backend would register)."""
    try:
        from IPython import get_ipython
        from IPython.core.pylabtools import select_figure_formats
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None and getattr(shell, 'kernel', None) is not None:
        select_figure_formats(shell, {'png'})


def figure(chart, full_legends=False):
    from matplotlib.figure import Figure
    _notebook_shows_figures()
    lanes = len(chart.data.get('lanes', [])) or len(chart.data.get('stages', []))
    fig = Figure(figsize=(11, max(4.5, 1.2 + 0.45 * lanes)))
    ax = fig.subplots()
    DRAW[chart.kind](ax, chart)
    title = chart.title
    if chart.origin_ns is not None:
        title += f'\n(0 s: {chart.origin_text})'
    ax.set_title(title, fontsize='medium')
    ax.set_xlabel(chart.x_label)
    ax.set_ylabel(chart.y_label)
    named = [s for s in chart.series if s['name']]
    if named and (full_legends or len(named) <= LEGEND_LIMIT):
        handles, labels = ax.get_legend_handles_labels()
        if chart.kind == 'stacked':  # as stacked: the first stage on top
            handles, labels = handles[::-1], labels[::-1]
        # beside the plot, not over it: names are long
        ax.legend(handles, labels, fontsize='x-small', loc='upper left',
                  bbox_to_anchor=(1.01, 1.0))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def _lines(ax, chart):
    for i, s in enumerate(chart.series):
        ax.plot(s['x'], s['y'], color=colour(i), linewidth=1, marker='.', markersize=3,
                label=s['name'])


def _histogram(ax, chart):
    edges = numpy.asarray(chart.data['edges'])
    # the tallest bar of a bin behind the others, as the original stacks them
    counts = numpy.array([s['y'] for s in chart.series], dtype=float).reshape(
        len(chart.series), len(edges) - 1)
    for b in range(len(edges) - 1):
        for i in numpy.argsort(-counts[:, b], kind='stable'):
            if counts[i, b]:
                ax.bar(edges[b], counts[i, b], width=edges[b + 1] - edges[b], align='edge',
                       color=colour(i), edgecolor='white', linewidth=0.5)
    for i, s in enumerate(chart.series):  # one legend entry a series
        ax.bar(edges[0], 0, width=0, color=colour(i), label=s['name'])


def _stacked(ax, chart):
    x, width = chart.data['x'], chart.data['width']
    bottom = numpy.zeros(len(x))
    # the last stage at the bottom, the first on top
    for i, s in reversed(list(enumerate(chart.series))):
        y = numpy.asarray(s['y'], dtype=float)
        ax.bar(x, y, width=width, bottom=bottom, align='edge', color=colour(i),
               label=s['name'], linewidth=0)
        bottom += y


def _flow(ax, chart):
    from matplotlib.patches import Rectangle
    stages = chart.data['stages']
    for x0, x1, row in chart.data['boxes']:
        ax.add_patch(Rectangle((x0, row), x1 - x0, 1, color='black', alpha=0.15, linewidth=0))
    ys = numpy.arange(len(stages))
    for i, xs in enumerate(chart.data['lines']):
        xs = numpy.asarray(xs, dtype=float)
        ok = ~numpy.isnan(xs)
        ax.plot(xs[ok], ys[ok], color=colour(i), linewidth=1)
    ax.set_yticks(ys, stages, fontsize='x-small')
    ax.set_ylim(len(stages) - 0.5, -0.5)


def _sched(ax, chart):
    lanes = chart.data['lanes']
    for y, lane in enumerate(lanes):
        runs = [(a, b - a) for a, b in lane['runs'] if a is not None and b is not None]
        ax.broken_barh(runs, (y - 0.3, 0.6), color=colour(lane['colour']))
    ax.set_yticks(range(len(lanes)), [lane['name'] for lane in lanes], fontsize='x-small')
    ax.set_ylim(len(lanes) - 0.5, -0.5)
    if chart.data.get('range'):
        ax.set_xlim(*chart.data['range'])


DRAW = {'lines': _lines, 'histogram': _histogram, 'stacked': _stacked, 'flow': _flow,
        'sched': _sched}
