"""The Django admin is for staff only."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse


@pytest.mark.django_db
def test_admin_redirects_anonymous_visitors_to_its_login(client):
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.django_db
def test_admin_refuses_a_signed_in_player_who_is_not_staff(client, player):
    client.force_login(player)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 302


@pytest.mark.django_db
def test_admin_lists_users_for_staff(client, player):
    admin = get_user_model().objects.create_superuser(
        username="root-staff", email="staff@example.com", password="x-long-password-1"
    )
    client.force_login(admin)
    assert client.get(reverse("admin:index")).status_code == 200
    changelist = client.get(reverse("admin:auth_user_changelist"))
    assert changelist.status_code == 200
    assert "amira" in changelist.content.decode()
    change = client.get(reverse("admin:auth_user_change", args=[player.pk])).content.decode()
    # "View on site" opens the public profile.
    assert 'href="/players/amira/"' in change


@pytest.mark.django_db
def test_the_admin_log_in_is_the_sites_own(client):
    """/admin/login/ sends everyone to allauth's log-in, whose limits on failed log-ins hold; it
    checks no password itself."""
    staff = get_user_model().objects.create_superuser(
        username="root-staff", email="staff@example.com", password="x-long-password-1"
    )
    shown = client.get(reverse("admin:login") + "?next=/admin/")
    assert shown.status_code == 302
    assert shown["Location"] == reverse("account_login") + "?next=%2Fadmin%2F"
    posted = client.post(reverse("admin:login"),
                         {"username": staff.username, "password": "x-long-password-1"})
    assert posted.status_code == 302 and posted["Location"].startswith(reverse("account_login"))
    assert "_auth_user_id" not in client.session  # the admin's form logged nobody in


@pytest.mark.django_db
def test_a_player_who_is_not_staff_is_refused_at_the_admin_log_in(client, player):
    client.force_login(player)
    refused = client.get(reverse("admin:login"))
    assert refused.status_code == 403
    assert "Your account may not open this page." in refused.content.decode()  # the site's page


@pytest.mark.django_db
def test_staff_close_accounts_with_the_admins_action(client, player):
    from accounts.models import Closure

    admin = get_user_model().objects.create_superuser(
        username="root-staff", email="staff@example.com", password="x-long-password-1"
    )
    client.force_login(admin)
    response = client.post(reverse("admin:auth_user_changelist"),
                           {"action": "close_accounts", "_selected_action": [player.pk]}, follow=True)
    assert "1 account closed." in response.content.decode()
    player.refresh_from_db()
    assert not player.is_active
    closure = Closure.objects.get(user=player)
    assert (closure.by, closure.reason) == (admin, "closed in the admin")
