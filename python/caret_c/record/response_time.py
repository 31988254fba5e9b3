"""ResponseTime: the original's response-time cases of records
(caret_analyze.record.ResponseTime). A path's records with no columns
given are computed by libcaret-analyze (caret_path_response_times); other
records, chosen columns and the stacked bars by the same rules in Python
(response_rules.py)."""
from .. import frames
from ..application import PathRecords
from .records import Records, converted, frame_of, int64_column
from .response_rules import EveryOutput, LatestInput, as_columns

LIBRARY_CASES = {'all': 'all', 'best': 'best', 'worst': 'worst',
                 'worst-with-external-latency': 'worst_with_external_latency'}


class ResponseTime:
    """ResponseTime(records, *, columns=None): inputs from the first of the
    columns (the records' first by default), outputs from the last."""

    def __init__(self, records, *, columns=None):
        self._records = records
        self._by_library = isinstance(records, PathRecords) and columns is None
        self._frame = None if self._by_library else frame_of(records)
        if columns is None and not self._by_library:
            columns = [self._frame.columns[0], self._frame.columns[-1]]
        self._columns = columns
        self._every = self._latest = None

    # ---- the rules, built when first asked --------------------------------
    def _frame_now(self):
        if self._frame is None:
            self._frame = frame_of(self._records)
        return self._frame

    def _columns_now(self):
        if self._columns is None:
            cols = list(self._frame_now().columns)
            self._columns = [cols[0], cols[-1]]
        return self._columns

    def _every_output(self):
        if self._every is None:
            self._every = EveryOutput(self._frame_now(), self._columns_now())
        return self._every

    def _latest_input(self):
        if self._latest is None:
            self._latest = LatestInput(self._frame_now(), self._columns_now())
        return self._latest

    def _case(self, case, converter):
        if self._by_library:
            path, r = self._records.path, self._records
            inputs, times = path._followed().response_times(LIBRARY_CASES[case], r.first, r.last)
            df = frames.frame([r.columns[0]], [inputs], path._app.epoch_offset)
            starts, missing = df.iloc[:, 0].to_numpy('int64', na_value=0), df.iloc[:, 0].isna()
            column = r.columns[0]
        else:
            every = self._every_output()
            pairs = {'all': every.all, 'best': every.best, 'worst': every.worst,
                     'worst-with-external-latency': every.worst_with_external_latency}[case]()
            starts, times = as_columns(pairs, 2)
            missing, column = None, self._columns_now()[0]
        if converter is not None:
            starts = converted(starts, converter)
        # durations: 0 is a value here, not a missing time
        return Records([column, 'response_time'],
                       [int64_column(starts, missing), int64_column(times)])

    # ---- the original's cases ----------------------------------------------
    def to_all_records(self, converter=None):
        """Every input with the earliest output it reaches."""
        return self._case('all', converter)

    def to_best_case_records(self, converter=None):
        """Each output with the latest input that reaches it."""
        return self._case('best', converter)

    def to_worst_case_records(self, converter=None):
        """Each output with the earliest input that reaches it."""
        return self._case('worst', converter)

    def to_worst_with_external_latency_case_records(self, converter=None):
        """Each output from the input before its earliest one."""
        return self._case('worst-with-external-latency', converter)

    # ---- the stacked bars: every column of the chosen rows ------------------
    def _stacked(self, columns, rows_):
        return Records(columns, [int64_column(c) for c in as_columns(rows_, len(columns))])

    def to_all_stacked_bar(self):
        return self._stacked(self._columns_now(), self._every_output().all_stacked_bar())

    def to_worst_case_stacked_bar(self):
        return self._stacked(self._columns_now(), self._every_output().worst_case_stacked_bar())

    def to_best_case_stacked_bar(self):
        return self._stacked(self._columns_now(), self._latest_input().best_case_stacked_bar())

    def to_worst_with_external_latency_case_stacked_bar(self):
        """Columns: {first}_min (the earliest input), {first}_max (the
        latest), then the others."""
        first, *rest = self._columns_now()
        return self._stacked([f'{first}_min', f'{first}_max', *rest],
                             self._latest_input().worst_with_external_latency_stacked_bar())

    def _has_invalid_timestamps(self):
        """Complete records with a stage before the one it follows."""
        return self._latest_input().reversed_count != 0
