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
# No query string in any log line: a search or a filter (``/?q=<a claimed name>``), or a
# login redirect's ``next=``, may hold CBI. This logger writes the query's keyed digest in
# its place ("GET /?query-3f9a1c2b7d4e HTTP/1.1"; the same query, the same digest), in the
# request line, the referrer, any header and the error log (reviewer/log.py).
logger_class = "reviewer.log.GunicornLogger"
# Client, user, time, request line (method, path, the query's digest), status, bytes,
# referrer, user agent, and the seconds the request took.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(L)s'
# gunicorn's runtime control socket (``gunicornc``) lives at one path per user, so two
# instances on a host would share it; nothing here uses it: off.
control_socket_disable = True
