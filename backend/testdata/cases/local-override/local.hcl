workspace_dir = "ws1"
path = "c.tfstate"
