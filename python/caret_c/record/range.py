"""Range: the original's caret_analyze.record.Range."""
import logging

from .records import frame_of, values_and_mask

logger = logging.getLogger(__name__)


class Range:
    """Range(records_list).get_range(): the least and the greatest time of
    the records' first columns; (0, 1) when none has a time."""

    def __init__(self, records_list):
        self._records_list = records_list

    def get_range(self):
        lows, highs = [], []
        for records in self._records_list:
            frame = frame_of(records)
            if not len(frame.columns):
                continue
            values, missing = values_and_mask(frame[frame.columns[0]])
            if (~missing).any():
                lows.append(int(values[~missing].min()))
                highs.append(int(values[~missing].max()))
        if not lows:
            logger.warning('No valid measurement data.')
            return 0, 1
        return min(lows), max(highs)
