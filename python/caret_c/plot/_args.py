"""The arguments of Plot.create_* checked as the original's
type_check_decorator checks them (with pydantic 2): one collection given
for the objects is unpacked, an object of another type is an
UnsupportedTypeError naming the argument, its index and the types taken.
Types are told by class name (a caret_c class or one of its subclasses),
so the objects may live in any module of the package."""
from collections.abc import Collection

from .._exceptions_compat import InvalidArgumentError, UnsupportedTypeError

CASES = ('all', 'best', 'worst', 'worst-with-external-latency')
# the original's message, its spaces as each of its plots has them
CASE_SPACES = {'timeseries': 34, 'stacked_bar': 33, 'histogram': 38}
XAXIS_TYPES = ('system_time', 'sim_time', 'index')
SIM_TIME_ERROR = 'Failed to load sim_time. Please measure again with clock_recorder running.'


def is_a(obj, *class_names):
    """obj is an instance of a caret_c class of one of these names."""
    return any(c.__name__ in class_names and c.__module__.startswith('caret_c')
               for c in type(obj).__mro__)


def _expected(class_names):
    return str(list(class_names)) if len(class_names) > 1 else f"'{class_names[0]}'"


def _type_error(name, index, class_names, obj):
    where = f"'{name}'" if index is None else f"'{name}'[{index}]"
    return UnsupportedTypeError(f'Type of argument {where} must be {_expected(class_names)}. '
                                f"The given argument type is '{type(obj).__name__}'.")


def objects(args, class_names, name='target_objects'):
    """The objects of a *target_objects argument: one collection given is
    unpacked; each must be one of class_names (the last one that is not
    is named, as the original does)."""
    if len(args) == 1 and isinstance(args[0], Collection):
        args = tuple(args[0])
    bad = [i for i, o in enumerate(args) if not is_a(o, *class_names)]
    if bad:
        raise _type_error(name, bad[-1], class_names, args[bad[-1]])
    return list(args)


def one(obj, class_names, name):
    if not is_a(obj, *class_names):
        raise _type_error(name, None, class_names, obj)
    return obj


def text(value, name, optional=False):
    if value is None and optional:
        return value
    if not isinstance(value, str):
        raise _type_error(name, None, ('str',), value)
    return value


def number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _type_error(name, None, ('float',), value)
    return value


def flag(value, name):
    if not isinstance(value, bool):
        raise _type_error(name, None, ('bool',), value)
    return value


def case(value, plot):
    """A response-time case; the original finds a bad one when it computes
    (a ValueError), not when the plot is made."""
    if value not in CASES:
        raise ValueError('optional argument "case" must be following:' +
                         ' ' * CASE_SPACES[plot] +
                         '"all", "best", "worst", "worst-with-external-latency".')
    return value


def xaxis_type(value, allowed=XAXIS_TYPES):
    if value not in allowed:
        raise UnsupportedTypeError(f'Unsupported xaxis_type. xaxis_type = {value}. '
                                   f'supported xaxis_type: [{"/".join(allowed)}]')
    return value


def no_sim_time(value):
    """caret-c does not read the trace's /clock (ros2_caret:sim_time)
    events: sim_time is the original's error for a trace without them."""
    if value == 'sim_time':
        raise InvalidArgumentError(SIM_TIME_ERROR)
