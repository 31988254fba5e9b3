"""The original's window of a frame (its Strip and Clip): the rows whose
first time lies from the first row's plus lstrip_s to the last row's
minus rstrip_s, compared as pandas compares them (a float bound)."""


def window(frame, lstrip_s=0, rstrip_s=0):
    """(low, high) ns of the rows kept; (0, 1) for a frame with no row."""
    if not len(frame.columns) or not len(frame):
        return 0, 1
    first = frame[frame.columns[0]]
    return first.iloc[0] + lstrip_s * 1.0e9, first.iloc[-1] - rstrip_s * 1.0e9


def clip(frame, low, high):
    if not len(frame.columns):
        return frame
    first = frame[frame.columns[0]]
    return frame[(first >= low) & (first <= high)].reset_index(drop=True)
