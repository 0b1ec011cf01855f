"""The WSGI entry point gunicorn serves: ``checker.web.wsgi:app``."""

from checker.web import create_app

app = create_app()
