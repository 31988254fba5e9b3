"""StackedBar: the original's caret_analyze.record.StackedBar, the time
between a path's stages by node and topic, from a ResponseTime's
stacked-bar records."""
from .._exceptions_compat import InvalidArgumentError
from .latency import Latency
from .records import Records, frame_of, int64_column

WORST_TO_BEST = '[worst - best] response time'


def stage_name(column):
    """A path column's stage by topic (publish) or callback (its start;
    its end with '_end'); None for the stages in between (rcl, dds)."""
    if column.endswith('_min'):
        return WORST_TO_BEST
    owner = '/'.join(column.split('/')[:-2])
    if 'rclcpp_publish' in column or 'rmw_take' in column or 'callback_start' in column:
        return owner
    if 'callback_end' in column:
        return owner + '_end'
    return None


class StackedBar:
    """StackedBar(records, converter=None): for each record, the time from
    each named stage to the next ('start time': the first stage's time).
    records carry 'invalid_timestamps' when the response time found a
    stage before the one it follows: the columns, no rows."""

    def __init__(self, records, converter=None):
        frame = frame_of(records)
        renames = {c: stage_name(c) for c in frame.columns if stage_name(c) is not None}
        names = list(renames.values())
        if len(names) < 2:
            raise ValueError(f'Column size is {len(names)} and must be more 2.')
        staged = frame[list(renames)].set_axis(names, axis=1)
        out = {}
        for a, b in zip(names, names[1:]):
            latency = Latency(staged, a, b).to_records().to_dataframe()['latency']
            if len(latency) != len(staged):
                raise ValueError(f'stage {b} before {a} in a record: no stacked bar '
                                 '(the original fails here too)')
            out[a] = [int(v) for v in latency]
        starts = [int(v) for v in staged[names[0]].dropna()]
        if converter is not None:
            starts = [round(converter.convert(float(t))) for t in starts]
        if 'invalid_timestamps' in frame.columns:
            starts = []
        elif not len(frame):
            # the original cannot add its 'start time' to no record
            raise InvalidArgumentError("Contains an unknown columns. {'start time'}")
        out['start time'] = starts
        self._dict = out
        self._columns = names[:-1]

    def to_dict(self):
        """{column: [ns, ...]}: each stage's time to the next, then 'start time'."""
        return {k: list(v) for k, v in self._dict.items()}

    @property
    def columns(self):
        """The stages (not 'start time')."""
        return list(self._columns)

    @property
    def records(self):
        return Records(list(self._dict), [int64_column(v) for v in self._dict.values()])
