"""bokeh (which Debian does not package) as empty stand-in modules, so
that the original's caret_analyze.plot imports and its DataFrames can be
computed: they never draw. Imported for its effect, before caret_analyze."""
import importlib.abc
import importlib.machinery
import sys
from unittest import mock


class _StandIn(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name == 'bokeh' or name.startswith('bokeh.'):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        module = mock.MagicMock(name=spec.name)
        module.__path__, module.__spec__, module.__name__ = [], spec, spec.name
        module.__version__ = '3.4.0'
        return module

    def exec_module(self, module):
        pass


if not any(isinstance(f, _StandIn) for f in sys.meta_path):
    sys.meta_path.insert(0, _StandIn())
