from cf.cli import run

run()
