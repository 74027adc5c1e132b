package cli

func runUpgrade(m *Meta, args []string) int { return 1 }
