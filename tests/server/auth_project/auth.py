"""Two users by bearer token; each sees only what they own, and their own store namespace."""

from langgraph_sdk import Auth

auth = Auth()
TOKENS = {"token-alice": "alice", "token-bob": "bob"}


@auth.authenticate
async def authenticate(authorization: str | None) -> str:
    if not authorization or not authorization.startswith("Bearer "):
        raise Auth.exceptions.HTTPException(status_code=401, detail="missing bearer token")
    user = TOKENS.get(authorization.removeprefix("Bearer "))
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown token")
    return user


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: dict) -> dict:
    filters = {"owner": ctx.user.identity}
    metadata = value.setdefault("metadata", {})
    if metadata is not None:
        metadata.update(filters)
    return filters


@auth.on.store()
async def own_namespace(ctx: Auth.types.AuthContext, value: dict) -> None:
    namespace = tuple(value.get("namespace") or ())
    if namespace[:1] != (ctx.user.identity,):
        value["namespace"] = (ctx.user.identity, *namespace)
