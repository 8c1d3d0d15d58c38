"""Load the demo users and cases into an empty database (the quick start's data)."""

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

DEMO_FIXTURES = ("demo_users", "demo_cases")


class Command(BaseCommand):
    help = (
        "Loads fixtures/demo_users.json and fixtures/demo_cases.json when the database has no users "
        "yet, then records their initial history. With --force, loads them anyway (overwriting the "
        "demo rows by primary key)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="load even when users exist")

    def handle(self, *args, force: bool = False, **options):
        if get_user_model().objects.exists() and not force:
            self.stdout.write("Users exist already: demo data not loaded (use --force to reload it).")
            return
        call_command("loaddata", *DEMO_FIXTURES, verbosity=0)
        # Fixtures load with raw saves, which write no history: start each row's history now.
        call_command("populate_history", "--auto", verbosity=0)
        self.stdout.write(self.style.SUCCESS("Demo users and cases loaded."))
