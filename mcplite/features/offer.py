"""Everything a server offers besides tools, held together for its engine: resources and
templates, prompts, the server-wide completion function, subscriptions and the lifespan.

>>> offer = Offer(page_size=10)
>>> len(offer.resources), len(offer.prompts), offer.completion is None
(0, 0, True)
"""

from __future__ import annotations

from mcplite.features.completions import ServerCompletion
from mcplite.features.lifespan import Lifespan
from mcplite.features.prompts import PromptRegistry
from mcplite.features.resources import ResourceRegistry
from mcplite.features.subscriptions import Subscriptions


class Offer:
    """A server's resources, prompts, completion function, subscriptions and lifespan."""

    def __init__(self, page_size: int = 100) -> None:
        self.resources = ResourceRegistry(page_size)
        self.prompts = PromptRegistry(page_size)
        self.completion: ServerCompletion | None = None
        self.subscriptions = Subscriptions()
        self.lifespan = Lifespan()
