"""``manage.py run_analyses``: the analysis worker, when the web processes do not run them."""

import time

from django.core.management.base import BaseCommand

from games.replays import jobs


class Command(BaseCommand):
    help = "Run the requested analyses of matches and imported records (games/replays/jobs.py)."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true",
                            help="run what is pending now, then stop")
        parser.add_argument("--poll", type=float, default=1.0,
                            help="seconds between looks for new requests (default 1)")

    def handle(self, *args, once: bool = False, poll: float = 1.0, **options):
        executor = jobs.pool()
        try:
            while True:
                ran = jobs.run_pending(executor=executor)
                if ran:
                    self.stdout.write(f"analysed {ran}")
                if once:
                    return
                time.sleep(poll)
        finally:
            executor.shutdown(cancel_futures=True)
