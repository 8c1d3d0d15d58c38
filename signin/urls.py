from django.urls import path

from . import views

urlpatterns = [
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", views.sign_out, name="logout"),
    path("accounts/sso/start/", views.start, name="signin-start"),
    path("accounts/sso/callback/", views.callback, name="signin-callback"),
]
