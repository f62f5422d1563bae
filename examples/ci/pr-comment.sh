#!/bin/sh
# Post the mcptest PR comment, or update it in place: the comment whose first line is the same hidden marker.
#   mcptest report run.json --compare baseline.json --format pr-comment --output comment.md
#   sh pr-comment.sh github comment.md   # needs GITHUB_TOKEN, GITHUB_REPOSITORY, PR_NUMBER (GITHUB_API_URL optional)
#   sh pr-comment.sh gitlab comment.md   # needs GITLAB_TOKEN, CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID
# Only curl and python3 (mcptest's own interpreter) are used; the comment goes on stdin, never on a command line.
set -eu
kind=$1
comment=$2
marker=$(head -n 1 "$comment")
case $kind in
  github)
    api="${GITHUB_API_URL:-https://api.github.com}/repos/$GITHUB_REPOSITORY/issues"
    auth="Authorization: Bearer $GITHUB_TOKEN"
    list="$api/$PR_NUMBER/comments?per_page=100"
    create="$api/$PR_NUMBER/comments"
    update="$api/comments"
    verb=PATCH
    ;;
  gitlab)
    api="$CI_API_V4_URL/projects/$CI_PROJECT_ID/merge_requests/$CI_MERGE_REQUEST_IID/notes"
    auth="PRIVATE-TOKEN: $GITLAB_TOKEN"
    list="$api?per_page=100"
    create="$api"
    update="$api"
    verb=PUT
    ;;
  *)
    echo "usage: pr-comment.sh github|gitlab COMMENT.md" >&2
    exit 2
    ;;
esac
id=$(curl -fsS -H "$auth" "$list" | MARKER="$marker" python3 -c '
import json, os, sys
mine = [c["id"] for c in json.load(sys.stdin) if str(c.get("body", "")).startswith(os.environ["MARKER"])]
print(mine[0] if mine else "")')
body() { python3 -c 'import json, sys; print(json.dumps({"body": sys.stdin.read()}))' < "$comment"; }
if [ -n "$id" ]; then
  body | curl -fsS -o /dev/null -X "$verb" -H "$auth" -H "Content-Type: application/json" --data-binary @- "$update/$id"
  echo "mcptest: updated comment $id"
else
  body | curl -fsS -o /dev/null -X POST -H "$auth" -H "Content-Type: application/json" --data-binary @- "$create"
  echo "mcptest: posted a new comment"
fi
