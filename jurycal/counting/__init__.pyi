"""The public names of jurycal.counting, listed once: __init__.py reads this stub
(lazy_loader.attach_stub) and loads each name on first use."""

from .files import confusion_files as confusion_files
from .files import count_files as count_files
from .files import duckdb_message as duckdb_message
from .files import judgment_files as judgment_files
from .frames import confusion_frame as confusion_frame
from .frames import count_frame as count_frame
from .labels import NULL_STRINGS as NULL_STRINGS
from .limits import DEFAULT_MEMORY_LIMIT as DEFAULT_MEMORY_LIMIT
from .tally import MAX_REPORTED as MAX_REPORTED
