def main() -> None:
    print("futmesa")
