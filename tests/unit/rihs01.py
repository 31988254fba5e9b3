"""Prints the RIHS01 type hash (REP-2011) of messages without nested types,
computed from their IDL with Jazzy's rosidl_generator_type_description as a
rosidl build would: one "NAME RIHS01_..." line each.
usage: rihs01.py PACKAGE_SHARE_DIR NAME..."""
import sys
from pathlib import Path

from rosidl_parser.definition import IdlLocator, Message
from rosidl_parser.parser import parse_idl_file
import rosidl_generator_type_description as td

share = Path(sys.argv[1])
for name in sys.argv[2:]:
    idl = parse_idl_file(IdlLocator(share, Path('msg') / f'{name}.idl'))
    message = idl.content.get_elements_of_type(Message)[0]
    description = td.serialize_individual_type_description(
        message.structure.namespaced_type, message.structure.members)
    print(name, td.calculate_type_hash(
        {'type_description': description, 'referenced_type_descriptions': []}))
