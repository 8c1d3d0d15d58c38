from django.urls import path

from . import views

urlpatterns = [
    path("notices/", views.notice_list, name="notice-list"),
    path("notices/<int:pk>/read/", views.notice_read, name="notice-read"),
    path("notices/read-all/", views.notices_read_all, name="notices-read-all"),
    path("use-comments/<int:pk>/resolve/", views.use_comment_resolve, name="use-comment-resolve"),
]
