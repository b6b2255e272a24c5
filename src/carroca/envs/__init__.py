"""carroca's rules as reinforcement-learning environments (the optional `rl` extra).

`carroca.envs.aec`: a PettingZoo AEC environment for each ruleset. `carroca.envs.spiel`: the
rulesets registered as OpenSpiel games (`pyspiel.load_game("carroca_duplas_pontos")`).
`carroca.envs.encoding`: a seat's view as vectors, shared by both. They import only
`carroca.rules`, and the seat's view comes from its `observation`. Nothing is imported here, so
`carroca.envs` loads without the extra.
"""
