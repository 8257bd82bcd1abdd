"""The class families the knowledge table's rows name (compilelint.knowledge): the optimisers,
learning-rate schedulers and progress bars whose construction or methods break the graph."""

OPTIMIZERS = tuple(f"torch.optim.{name}" for name in (
    "Adam", "AdamW", "SGD", "LBFGS", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop",
    "SparseAdam", "Adafactor"))
OPTIMIZER_BASES = ("torch.optim.Optimizer", "torch.optim.optimizer.Optimizer")  # a parameter `optimizer: Optimizer`
LR_SCHEDULERS = tuple(f"torch.optim.lr_scheduler.{name}" for name in (
    "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR", "SequentialLR",
    "PolynomialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
    "CosineAnnealingWarmRestarts", "OneCycleLR"))
TQDM_CLASSES = ("tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.std.tqdm", "tqdm.notebook.tqdm", "tqdm.autonotebook.tqdm")
