"""What the plots need of caret_c's objects, in one place: their records
and their labels and time columns as the original names them."""
from ._args import is_a
from .._exceptions_compat import InvalidArgumentError


def records_frame(obj):
    """The object's records as a DataFrame (the original's to_records())."""
    if not hasattr(obj, 'to_dataframe'):
        raise InvalidArgumentError(f'{obj!r}: caret_c has no records of it to plot')
    return obj.to_dataframe()


def column_names(obj):
    names = getattr(obj, 'column_names', None)
    return list(names) if names is not None else list(records_frame(obj).columns)


def label(obj):
    """The object's top-level column in a plot's DataFrame."""
    if is_a(obj, 'CallbackBase'):
        return obj.callback_name
    if is_a(obj, 'Communication'):
        return f'{obj.publish_node_name}|{obj.topic_name}|{obj.subscribe_node_name}'
    if is_a(obj, 'Publisher', 'Subscription'):
        return obj.topic_name
    names = column_names(obj)
    return f'{names[0]} to {names[-1]}'


def time_column(obj):
    """The name of the object's time column in a plot's DataFrame."""
    if is_a(obj, 'Publisher'):
        callbacks = getattr(obj, 'callback_names', None)
        name = (f'{callbacks[0]}/' if callbacks else '') + 'rclcpp_publish_timestamp'
    elif is_a(obj, 'Subscription'):
        name = column_names(obj)[0]
    else:
        name = column_names(obj)[0].split('/')[-1]
    return name + ' [ns]'


def display_name(obj):
    """A short name for a legend."""
    if is_a(obj, 'Path'):
        return obj.path_name or label(obj)
    if is_a(obj, 'Communication'):
        return f'{obj.topic_name} ({obj.publish_node_name} -> {obj.subscribe_node_name})'
    return label(obj)
