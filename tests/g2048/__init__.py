"""2048 (termgames/g2048/): its rules, AI and tables, assist, screen and simulations."""
