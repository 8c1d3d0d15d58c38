"""gunicorn settings for production: ``gunicorn`` in the project folder reads this file.

Run ``python manage.py collectstatic --no-input`` once per release first; WhiteNoise
serves the collected files. Environment: ``BIND`` (default 127.0.0.1:8000),
``WEB_CONCURRENCY`` (worker processes, default 2 × cores + 1).
"""

import multiprocessing
import os

wsgi_app = "reviewer.wsgi:application"
bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
timeout = 60
accesslog = "-"
# gunicorn's runtime control socket (``gunicornc``) lives at one path per user, so two
# instances on a host would share it; nothing here uses it: off.
control_socket_disable = True
