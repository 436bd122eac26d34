from ccsim.cli import entry

entry()
