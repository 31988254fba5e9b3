"""PlotBase: to_dataframe(), figure(), show() and save() of every plot,
with the original's arguments. The original draws with bokeh; caret_c
draws the same chart with matplotlib (figure(), PNG, SVG...) and as an
interactive uPlot page (save('x.html'), show() in a notebook)."""
import io
import os

from . import _args, draw_html, draw_mpl


def _in_notebook():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, 'kernel', None) is not None


class PlotBase:
    """What every plot has. A subclass gives to_dataframe() and _chart()."""

    XAXIS_TYPES = _args.XAXIS_TYPES

    def to_dataframe(self, xaxis_type='system_time'):
        raise NotImplementedError()

    def _chart(self, xaxis_type, **options):
        """The Chart drawn for this x axis."""
        raise NotImplementedError()

    def _chart_for(self, xaxis_type, options):
        xaxis_type = xaxis_type or 'system_time'
        _args.xaxis_type(xaxis_type, self.XAXIS_TYPES)
        _args.no_sim_time(xaxis_type)
        return self._chart(xaxis_type, **options)

    def figure(self, xaxis_type=None, ywheel_zoom=None, full_legends=None, **options):
        """A matplotlib Figure of the plot (the original's is bokeh's).
        ywheel_zoom is the interactive page's (its y axis zooms with a drag
        as well); full_legends: a legend even past 20 objects."""
        return draw_mpl.figure(self._chart_for(xaxis_type, options), bool(full_legends))

    def to_html(self, xaxis_type=None, title='', **options):
        """The interactive page of the plot (uPlot), as save('x.html') writes it."""
        return draw_html.page(self._chart_for(xaxis_type, options), title)

    def show(self, xaxis_type=None, ywheel_zoom=None, full_legends=None, **options):
        """In a notebook: the interactive chart where the cell is (its PNG
        too, for viewers without scripts); elsewhere pyplot's window."""
        chart = self._chart_for(xaxis_type, options)
        fig = draw_mpl.figure(chart, bool(full_legends))
        if _in_notebook():
            from IPython.display import display
            png = io.BytesIO()
            fig.savefig(png, format='png')
            shown = {'image/png': png.getvalue(),
                     'text/plain': f'<{type(self).__name__}: {chart.title}>'}
            try:
                shown['text/html'] = draw_html.iframe(chart)
            except FileNotFoundError:  # no uPlot here (a pip install): the image alone
                pass
            display(shown, raw=True)
            return
        import matplotlib.pyplot as plt
        manager = plt.figure().canvas.manager
        manager.canvas.figure = fig
        fig.set_canvas(manager.canvas)
        plt.show()

    def save(self, export_path, title='', xaxis_type=None, ywheel_zoom=None,
             full_legends=None, **options):
        """Writes the plot: an interactive HTML page for .html (offline:
        the chart library is inside), else the image matplotlib writes for
        the extension (.png, .svg, .pdf...)."""
        export_path = os.fspath(export_path)
        chart = self._chart_for(xaxis_type, options)
        if export_path.lower().endswith(('.html', '.htm')):
            with open(export_path, 'w', encoding='utf-8') as fh:
                fh.write(draw_html.page(chart, title))
            return
        fig = draw_mpl.figure(chart, bool(full_legends))
        if title:
            fig.suptitle(title)
            fig.tight_layout()
        fig.savefig(export_path)
